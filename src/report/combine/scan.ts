/**
 * A JSON report read piece by piece: the text of each element of its top-level `results` array
 * handed on as soon as it is complete (`onResult`), and the rest of the report (`head`) kept with
 * `"results": []` in the array's place. So `report merge` never holds a whole report: only the
 * head, and one result at a time. It only splits the text; JSON.parse reads each part, so any
 * text that is not JSON still fails there.
 */
export class ReportScanner {
  private head: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The text of the string being read at depth 1 (a key, when a colon follows). */
  private keyText = '';
  private lastString = '';
  private key = '';
  /** Inside the results array: the depth of its elements, and the element being read. */
  private resultsDepth = -1;
  private element: string[] = [];
  private elementStarted = false;
  private count = 0;

  constructor(private readonly onResult: (text: string, index: number) => void) {}

  feed(chunk: string): void {
    let from = 0;
    const inResults = () => this.resultsDepth !== -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.depth === 1 && !inResults()) this.lastString = this.keyText + chunk.slice(from, i);
        }
        continue;
      }
      if (inResults() && this.depth === this.resultsDepth) {
        // Between elements of the results array.
        if (c === COMMA || c === CLOSE_BRACKET) {
          this.element.push(chunk.slice(from, i));
          this.endElement();
          from = i + 1;
          if (c === CLOSE_BRACKET) {
            this.depth--;
            this.resultsDepth = -1;
            this.head.push('[]');
            from = i + 1;
          }
          continue;
        }
      }
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && !inResults()) {
          this.keyText = '';
          this.head.push(chunk.slice(from, i + 1));
          from = i + 1;
        }
        if (inResults()) this.elementStarted = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (c === OPEN_BRACKET && this.depth === 1 && !inResults() && this.key === 'results') {
          this.head.push(chunk.slice(from, i));
          from = i + 1;
          this.depth++;
          this.resultsDepth = this.depth;
          continue;
        }
        this.depth++;
        if (inResults()) this.elementStarted = true;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
      } else if (c === COLON && this.depth === 1 && !inResults()) {
        this.key = this.lastString;
      } else if (c === COMMA && this.depth === 1) {
        this.key = '';
      } else if (inResults() && c > SPACE) {
        this.elementStarted = true;
      }
    }
    const rest = chunk.slice(from);
    if (this.inString && this.depth === 1 && !inResults()) this.keyText += rest;
    if (inResults()) this.element.push(rest);
    else this.head.push(rest);
  }

  /** The report without its results' texts (`"results": []`), once the whole text was fed. */
  end(): { head: string; results: number } {
    return { head: this.head.join(''), results: this.count };
  }

  private endElement(): void {
    const text = this.element.join('');
    this.element = [];
    if (this.elementStarted || text.trim() !== '') this.onResult(text, this.count++);
    this.elementStarted = false;
  }
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;
