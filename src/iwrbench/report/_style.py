"""The report's inline CSS and its one small script (sortable tables); no framework, no network."""

CSS = """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;
--warn:#9a6700;--info:#0969da;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:var(--bg);font-size:14px;line-height:1.45}
a{color:var(--info);text-decoration:none}a:hover{text-decoration:underline}
header.top{background:#0d1117;color:#e6edf3;padding:14px 24px 16px}
header.top a{color:#9ecbff}
header.top h1{font-size:20px;margin:0 0 2px}
header.top .sub{color:#9da7b3;font-size:13px}
.facts{font-size:12.5px;color:#c9d1d9;margin:6px 0 0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:2px 22px}
.facts li{margin:1px 0;min-width:0;overflow-wrap:anywhere}.facts b{color:#e6edf3;font-weight:600}
details.fold{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:8px 0;background:var(--soft)}
details.fold>summary{font-weight:600}
details.fold ol,details.fold ul{margin:6px 0 2px;padding-left:20px;font-size:12.5px}details.fold li{margin:2px 0}
td.ci{color:var(--muted);font-size:12px;white-space:nowrap}
.lb-note{max-width:1000px;margin:6px 0 10px}.lb-note>summary{font-weight:400}
.lb-wrap{margin-top:4px}.lb-part{flex:0 1 auto;min-width:0;max-width:100%;margin:0 0 8px}.lb-part h3{margin:0 0 4px}
.lb-part p{max-width:560px;margin:4px 0 0}
svg.chart .ci{stroke:#1f2328;stroke-width:1.2;fill:none}
.pill{display:inline-block;border-radius:999px;padding:1px 9px;font-size:12px;font-weight:600;
background:#1f6feb;color:#fff;vertical-align:middle}
main{padding:12px 24px 40px;max-width:1500px}
section{margin:14px 0 22px}
h2{font-size:17px;margin:0 0 8px}
h3{font-size:14.5px;margin:12px 0 6px}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:4px 7px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th:after{content:" \\2195";color:#afb8c1;font-size:11px}
tr.best td{background:#f0fff4}
.sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:baseline}
.lb-wrap{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
/* a table wider than the window scrolls inside its own box; the page itself never scrolls sideways */
.wide{overflow-x:auto;max-width:100%;min-width:0}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:11.5px;font-weight:600;white-space:nowrap}
.s-ok{background:#dafbe1;color:var(--ok)}.s-generation_error{background:#ffebe9;color:var(--bad)}
.s-page_error{background:#fff1c2;color:var(--warn)}.s-judge_error{background:#ddf4ff;color:var(--info)}.s-task_error{background:#eaeef2;color:var(--muted,#57606a)}
.pass{color:var(--ok);font-weight:600}.fail{color:var(--bad);font-weight:600}.na{color:var(--muted)}
.muted{color:var(--muted)}.nw{white-space:nowrap}.small{font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart-box{border:1px solid var(--line);border-radius:6px;padding:6px 8px;overflow-x:auto;max-width:100%}
svg.chart{font-family:inherit;display:block;max-width:100%;height:auto}
svg.chart .ct{font-size:12.5px;font-weight:600;fill:var(--fg)}
svg.chart .tick,svg.chart .val{font-size:10px;fill:var(--muted)}svg.chart .val.sm{font-size:8.5px}
svg.chart .gl{font-size:11px;fill:var(--fg)}svg.chart .na{font-size:11px;fill:var(--muted)}
svg.chart .grid{stroke:#eaeef2;stroke-width:1}svg.chart .axis{stroke:#8c959f;stroke-width:1}
.legend{font-size:12px;margin:4px 0 6px}.chart-box .legend{margin:2px 0 0 8px}.legend span{margin-right:14px;white-space:nowrap}
.notes{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:6px 12px;margin:10px 0}
.error-box{background:#ffebe9;border:1px solid #ff8182;border-radius:6px;padding:8px 12px;margin:8px 0;white-space:pre-wrap;
font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.error-box.page_error{background:#fff8c5;border-color:#d4a72c}.error-box.judge_error{background:#ddf4ff;border-color:#54aeff}
.scores{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}
.score{border:1px solid var(--line);border-radius:6px;padding:4px 12px;min-width:84px}
.score b{display:block;font-size:18px;font-variant-numeric:tabular-nums}.score span{font-size:11.5px;color:var(--muted)}
td.cell a{display:block}
ul.ev{margin:0;padding-left:16px;font-size:12px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre.code{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px;overflow:auto;max-height:640px;
white-space:pre-wrap;word-break:break-word}
details>summary{cursor:pointer}
.step{border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:10px 0}
.step h3{margin:0 0 6px;font-size:13.5px}
.trio{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px}
.trio figure{margin:0}.trio img{width:100%;height:auto;border:1px solid var(--line);display:block}
.trio figcaption{font-size:11.5px;color:var(--muted);margin-top:2px}
.missing{border:1px dashed #afb8c1;color:var(--muted);font-size:12px;display:flex;align-items:center;justify-content:center;
aspect-ratio:16/9;background:var(--soft);text-align:center;padding:6px}
.frames{display:flex;flex-wrap:wrap;gap:6px}
.frames figure{margin:0;width:160px}.frames img{width:160px;height:auto;border:1px solid var(--line);display:block}
.frames figcaption{font-size:11px;color:var(--muted)}
.comps img{width:220px}.comps figure{width:220px}
video.recording{display:block;width:640px;max-width:100%;height:auto;border:1px solid var(--line);background:#000}
nav.crumbs{font-size:12.5px;margin-bottom:4px}
nav.models a,nav.models b{margin-right:10px}
tr.ifs-in td:first-child{box-shadow:inset 3px 0 0 var(--ok)}tr.ifs-stop td:first-child{box-shadow:inset 3px 0 0 var(--bad)}
"""

JS = """
(function(){
  function val(td){var v=td.getAttribute('data-v');if(v===null)v=td.textContent.trim();
    var n=parseFloat(v);return isNaN(n)?v.toLowerCase():n;}
  document.querySelectorAll('table.sortable').forEach(function(t){
    t.querySelectorAll('thead th').forEach(function(th,i){
      th.addEventListener('click',function(){
        var body=t.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
        var dir=th.getAttribute('data-dir')==='desc'?'asc':'desc';th.setAttribute('data-dir',dir);
        rows.sort(function(a,b){var x=val(a.cells[i]),y=val(b.cells[i]);
          if(typeof x!==typeof y){x=String(x);y=String(y);}
          return (x<y?-1:x>y?1:0)*(dir==='asc'?1:-1);});
        rows.forEach(function(r){body.appendChild(r);});
      });
    });
  });
})();
"""
