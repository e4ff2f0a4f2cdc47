/**
 * The HTML report's inline style and script. The script only enhances: the page is whole without
 * it (matrix, failures, charts are server-rendered); with it, the filters and the search work.
 */
export const HTML_STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--skip:#9a6700;--notrun:#6e7781;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:16px 24px;max-width:1200px}
@media (max-width:600px){body{padding:12px}
table.assertions,table.assertions tbody,table.assertions tr,table.assertions td{display:block;width:100%}table.assertions thead{display:none}
table.assertions tr{border:1px solid var(--line);margin:0 0 6px}table.assertions td{border:0;border-top:1px solid var(--line)}table.assertions td:first-child{border-top:0}
table.assertions td[data-label]::before{content:attr(data-label);display:block;font-size:11px;color:var(--muted)}}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:14px;margin:12px 0 4px}h4{font-size:13px;margin:10px 0 4px}
.muted{color:var(--muted)}.run{display:flex;flex-wrap:wrap;gap:4px 18px}.totals b{font-size:16px}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--soft)}
.scroll{max-width:100%;overflow-x:auto}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:var(--pass)}.fail,.error{color:var(--fail)}.skip{color:var(--skip)}.not_run{color:var(--notrun)}
.cell-fail{background:#ffebe9}.cell-pass{background:#dafbe1}.cell-skip{background:#fff8c5}
.matrix td .pass{color:#116329}.matrix td .fail{color:#a40e26}.matrix td .skip{color:#6c4400}.matrix td .not_run{color:#4c545c}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;border:1px solid currentColor}
details,article.failure{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px;background:var(--bg)}
article.failure{border-left:4px solid var(--fail)}article.failure h3{margin:6px 0}
details>summary{cursor:pointer;list-style-position:outside}details[open]>summary{margin-bottom:6px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere}
summary,p,li,h3{overflow-wrap:anywhere}
.expected{color:var(--pass)}.actual{color:var(--fail)}pre{white-space:pre-wrap;word-break:break-word;margin:0}pre.diff{margin-top:4px;color:var(--fg)}.diff .add{color:var(--pass)}.diff .del{color:var(--fail)}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0;padding:8px;background:var(--soft);border-radius:6px}
.filters[hidden]{display:none}.hidden{display:none}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:8px 24px}figure.chart{margin:0 0 2px}figcaption{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.axis-legend{display:flex;justify-content:space-between;font-size:11px;border-top:1px solid var(--line)}
svg{display:block;overflow:visible}svg text{font:10px system-ui,sans-serif;fill:var(--fg)}svg .tick,svg .mark-label{fill:var(--muted)}
.axis,.whisker{stroke:var(--muted);stroke-width:1}.box{fill:#ddf4ff;stroke:#0969da}.sample{fill:#0969da;fill-opacity:.55}
.mark{stroke-width:2}.mark.p50{stroke:#1a7f37}.mark.p95{stroke:#bf8700}.mark.p99{stroke:#cf222e}svg .mark-label.p50{fill:#1a7f37}svg .mark-label.p95{fill:#9a6700}svg .mark-label.p99{fill:#cf222e}
.verdict{display:inline-block;border-radius:4px;padding:0 8px;color:#fff;font-size:14px;vertical-align:2px}.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}
.waterfall{margin:6px 0 10px;display:grid;grid-template-columns:minmax(4em,10em) minmax(40%,1fr) auto;gap:4px 8px;align-items:center}
.wf-row{display:contents}.wf-budgets{grid-column:1/-1}
.wf-label{text-align:right;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.wf-track{position:relative;height:16px;background:var(--soft);border-radius:2px}
.wf-track .bar{position:absolute;top:3px;height:10px;min-width:2px;background:#218bff;border-radius:2px}.wf-track .bar.fail{background:var(--fail)}.wf-track .bar.unknown{background:#8c959f}
.wf-track .budget{position:absolute;top:-2px;height:20px;border-left:2px dashed #9a6700}.wf-track .budget-line{position:absolute;top:-3px;bottom:-3px;border-left:2px dashed #9a6700}
.wf-track .budget.fail,.wf-track .budget-line.fail{border-left-color:var(--fail)}
.wf-ms{font-size:12px;max-width:16em;overflow-wrap:anywhere}.wf-row.fail .wf-label,.wf-row.fail .wf-ms{color:var(--fail);font-weight:600}
.wf-axis .wf-track{background:none;font-size:11px}.wf-axis .tick-start{position:absolute;left:0}.wf-axis .tick-end{position:absolute;right:0}
.wf-budgets{font-size:12px;margin-top:2px}
circle.msg.pass{fill:#2da44e}circle.msg.fail{fill:#cf222e}circle.msg.ack{fill:#8c959f}
.ids{font-size:12px;color:var(--muted)}
`;

export const HTML_SCRIPT = `
(function(){
  var form=document.getElementById('filters');if(!form)return;form.hidden=false;
  var items=[].slice.call(document.querySelectorAll('[data-status]'));
  var count=document.getElementById('shown');
  function apply(){
    var st=form.status.value,fl=form.flow.value,tr=form.transport.value,q=form.q.value.toLowerCase().trim(),n=0;
    items.forEach(function(el){
      var ok=(!st||el.dataset.status===st||(st==='fail'&&el.dataset.status==='error'))&&(!fl||el.dataset.flow===fl)&&(!tr||el.dataset.transport===tr)&&(!q||el.textContent.toLowerCase().indexOf(q)!==-1);
      el.classList.toggle('hidden',!ok);if(ok&&el.classList.contains('result'))n++;
    });
    if(count)count.textContent=String(n);
  }
  form.addEventListener('input',apply);form.addEventListener('submit',function(e){e.preventDefault();});apply();
})();
`;
