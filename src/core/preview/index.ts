/**
 * `roleflow preview` — pure: the comparison of the base and head runs of the same flow tests, the
 * JSON document, and its text and markdown renderings.
 */
export { comparePreview, isRegression, verdictOf, type PreviewComparison, type PreviewResult, type PreviewSide, type PreviewVerdict, type TestPreview } from './compare.js';
export { previewDocument, PREVIEW_FORMAT_VERSION, type PreviewDocument } from './document.js';
export { INCOMPLETE, renderPreviewMarkdown, renderPreviewText } from './render.js';
export { rolesDiffer } from './roles.js';
