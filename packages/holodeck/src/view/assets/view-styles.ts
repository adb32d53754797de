/**
 * The pages' stylesheet: served as /assets/view.css, inlined (with its hash in the CSP) in a
 * static report. Colours pass WCAG AA contrast on both schemes.
 */
export const VIEW_STYLES = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--ok:#116329;--bad:#a40e26;--err:#7d4e00;--link:#0550ae;--live:#0550ae;--chg:#8250df;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--panel:#161b22;--ok:#3fb950;--bad:#ff7b72;--err:#d29922;--link:#79c0ff;--live:#79c0ff;--chg:#d2a8ff}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0}.skip:focus{left:8px;top:8px;background:var(--bg);padding:6px 10px;z-index:10}
header.site{display:flex;gap:16px;align-items:center;padding:10px 20px;border-bottom:1px solid var(--line);background:var(--panel)}
header.site .brand{font-weight:700;text-decoration:none;color:var(--fg)}
nav.crumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:0}
nav.crumbs li+li::before{content:"/";margin-right:6px;color:var(--muted)}
main{padding:16px 20px 40px;max-width:1280px}
footer.site{padding:10px 20px;color:var(--muted);border-top:1px solid var(--line);font-size:13px}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:24px 0 8px}h3{font-size:16px;margin:16px 0 6px}h4{font-size:15px;margin:12px 0 6px}
h1:focus{outline:none}
.muted{color:var(--muted)}.small{font-size:12px}.ok{color:var(--ok)}.bad{color:var(--bad)}.err{color:var(--err)}
.table-wrap{overflow-x:auto;position:relative;max-width:100%}
table{border-collapse:collapse;width:100%;margin:8px 0}
caption{text-align:left;color:var(--muted);padding:4px 0}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
thead th{background:var(--panel);white-space:nowrap}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;color:var(--fg);cursor:pointer}
.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;border:1px solid currentColor;border-radius:10px;padding:0 7px;font-size:12px;font-weight:600;white-space:nowrap}
.badge-passed,.badge-newly-passing,.badge-verdict-pass{color:var(--ok)}
.badge-failed,.badge-newly-failing,.badge-verdict-kill{color:var(--bad)}
.badge-errored,.badge-dirty,.badge-verdict-hold{color:var(--err)}
.badge-flaky,.badge-change{color:var(--chg)}
.badge-live{color:var(--live)}.badge-interrupted{color:var(--muted)}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:6px 16px;margin:8px 0}
.facts div{min-width:0}.facts dt{color:var(--muted);font-size:12px}.facts dd{margin:0;overflow-wrap:anywhere}
.totals{list-style:none;display:flex;flex-wrap:wrap;gap:8px 20px;padding:0;margin:8px 0}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:end;margin:8px 0}
.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
select,input,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:4px 8px}
.notice{border-left:4px solid var(--err);background:var(--panel);padding:8px 12px;margin:8px 0}
.live{border-left:4px solid var(--live);background:var(--panel);padding:6px 12px}
.why{border-left:4px solid var(--bad);background:var(--panel);padding:4px 14px 8px;margin:12px 0}
.reason,.text{white-space:pre-wrap;overflow-wrap:anywhere}
.is-error{color:var(--bad)}
pre.code{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;margin:4px 0;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.conversation{list-style:none;padding:0;margin:0}
.msg{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:6px 0}
.msg .who{font-size:12px;font-weight:600;color:var(--muted);letter-spacing:.03em}
.msg-user{background:var(--panel)}.msg-tool{border-style:dashed}.msg-error{border-color:var(--bad)}
.turn{margin:8px 0}.turn-label{font-weight:600}
.attempt{border-top:2px solid var(--line);margin-top:24px}
.attempt-nav ul{list-style:none;display:flex;gap:8px;padding:0;flex-wrap:wrap}
.cite{margin-right:4px}
.chart{margin:8px 0 16px}.chart svg{width:100%;height:auto;display:block}.chart .hit{fill:transparent}.chart .point-link:focus-visible .pass-point{stroke:var(--link);stroke-width:3}
.chart .grid{stroke:var(--line)}.chart .axis{fill:var(--muted);font-size:11px}
.chart .pass-line{stroke:var(--ok);stroke-width:2}.chart .pass-point{fill:var(--ok)}.chart .stopped-point{fill:var(--bg);stroke:var(--muted);stroke-width:2}
.chart .cost-line{stroke:var(--link);stroke-width:2;stroke-dasharray:5 4}
.chart .change-mark line{stroke:var(--chg);stroke-dasharray:2 3}.chart .change-mark path{fill:var(--chg)}
.key::before{content:"";display:inline-block;width:14px;height:3px;margin-right:4px;vertical-align:middle;background:var(--ok)}
.key-cost::before{background:var(--link)}.key-change::before{background:var(--chg)}.key-stopped::before{background:var(--muted)}
figcaption{font-size:12px;color:var(--muted)}
.matrix-cell.best{outline:2px solid var(--ok);outline-offset:-2px;font-weight:600}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.filters label.check{flex-direction:row;gap:6px;align-items:center;font-size:13px;color:var(--fg)}
.why-list{margin:0;padding-left:16px;font-size:13px}.why-cell{min-width:12em}
.side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:12px;margin:8px 0}
.panel{border:1px solid var(--line);border-radius:8px;padding:4px 12px 10px;min-width:0}.panel h3{margin:6px 0}
.turn-inputs{margin:0;padding-left:20px}
.diff-box{margin:8px 0}.diff-box summary{cursor:pointer;font-weight:600}
.diff del{background:#ffebe9;color:#82071e;text-decoration:line-through}.diff ins{background:#dafbe1;color:#116329;text-decoration:none}
.diff-legend del{background:#ffebe9;color:#82071e}.diff-legend ins{background:#dafbe1;color:#116329;text-decoration:none}
@media (prefers-color-scheme:dark){.diff del,.diff-legend del{background:#67060c;color:#ffdcd7}.diff ins,.diff-legend ins{background:#033a16;color:#aff5b4}}
.turn-body{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:0 16px;align-items:start}
.turn-metrics{min-width:0}
.case-steps{display:flex;flex-wrap:wrap;gap:12px;align-items:baseline;margin:8px 0}
.differences{border-left:4px solid var(--chg);background:var(--panel);padding:4px 14px 8px;margin:12px 0}
.md p{margin:0 0 8px}.md p:last-child{margin-bottom:0}.md pre{white-space:pre-wrap;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;overflow-wrap:anywhere}
.md code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}.md table{width:auto}.md ul,.md ol{margin:4px 0;padding-left:22px}
.text,.reason{overflow-wrap:anywhere}
@media (max-width:600px){main{padding:12px}header.site{flex-wrap:wrap;padding:8px 12px}th,td{padding:4px 6px}}
`;
