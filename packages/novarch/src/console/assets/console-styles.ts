// The console's stylesheet, served as /console/assets/console.css (style-src 'self': no inline styles).
export const CONSOLE_STYLES = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fbfbfc; --muted: #5c6670; --line: #d4d9de;
  --accent: #0b5cad; --ok: #1a7f37; --bad: #b42318; --warn: #9a6700; --agent: #fff4d6; --card: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #14171a; --muted: #9aa4ae; --line: #343a40;
  --accent: #6cb6ff; --ok: #4ac26b; --bad: #ff7b72; --warn: #d4a72c; --agent: #3a3120; --card: #1c2024; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
code, pre, kbd { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; }
kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; }
.skip-link { position: absolute; left: -999px; }
.skip-link:focus { left: 8px; top: 8px; background: var(--card); padding: 4px 8px; z-index: 10; }
.banner { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; padding: 8px 20px; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; margin: 0; }
.banner nav ul { list-style: none; display: flex; gap: 14px; margin: 0; padding: 0; }
.banner nav a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 2px solid var(--accent); }
.viewer { margin-left: auto; display: flex; gap: 10px; align-items: center; }
.viewer form { margin: 0; }
main { padding: 12px 20px 40px; max-width: 1100px; }
main:focus { outline: none; }
h1 { font-size: 1.4em; margin: 8px 0 12px; }
.muted { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.message { padding: 8px 12px; border-radius: 4px; border: 1px solid var(--line); }
.message.error { border-color: var(--bad); color: var(--bad); }
.message.notice { border-color: var(--ok); }
.badge { font-size: 0.78em; border-radius: 10px; padding: 1px 8px; border: 1px solid var(--line); white-space: nowrap; }
.badge.agent { background: var(--agent); }
.badge.ok { color: var(--ok); } .badge.bad { color: var(--bad); }
.agent-text { background: var(--agent); white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote.agent-text { margin: 0; padding: 6px 10px; border-left: 3px solid var(--warn); }
.hold { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 0 0 14px; }
.hold:focus { outline: none; }
.hold.selected { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.hold.decided { opacity: 0.75; }
#queue.compact .hold:not(.selected) > :not(header), #queue.compact .hold.decided > :not(header):not(.outcome) { display: none; }
#queue.compact .hold:not(.selected) { padding: 4px 10px; margin: 0 0 4px; cursor: pointer; }
#queue.compact .hold:not(.selected) .scope { width: auto; }
#queue.one-at-a-time .hold:not(.selected) { display: none; }
.triage-group { font-size: 1em; margin: 12px 0 4px; }
.triage-arrange { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin-bottom: 10px; }
.hold .amount { font-weight: 600; }
.hold header { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; }
.hold h2 { font-size: 1.1em; margin: 0; }
.hold h3 { font-size: 0.95em; margin: 10px 0 4px; }
.countdown { font-weight: 600; margin: 0; }
.countdown.urgent { color: var(--bad); }
.scope { margin: 0; color: var(--muted); width: 100%; }
.hold dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.hold dt { color: var(--muted); }
.hold dd { margin: 0; }
pre.json { max-height: 16em; overflow: auto; background: var(--bg); border: 1px solid var(--line); padding: 6px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.decision { margin-top: 10px; display: grid; gap: 6px; }
.decision textarea, .kill textarea { width: 100%; font: inherit; }
.buttons { display: flex; gap: 8px; }
button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; }
button:focus-visible, a:focus-visible, textarea:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button.approve { border-color: var(--ok); } button.deny, button.danger { border-color: var(--bad); } button.stop { border-color: var(--bad); }\n.confirm { margin-top: 8px; padding: 8px; border: 2px solid var(--warn); border-radius: 6px; }
button:disabled { opacity: 0.5; cursor: not-allowed; }
.outcome { font-weight: 600; margin: 8px 0 0; }
.outcome:empty { display: none; }
.verdict { font-weight: 600; } .verdict-pass { color: var(--ok); } .verdict-kill { color: var(--bad); } .verdict-hold { color: var(--warn); }
.timeline { padding-left: 20px; } .timeline li { margin: 4px 0; }
.event .kind { font-weight: 600; text-transform: uppercase; font-size: 0.78em; }
.event.kill { color: var(--bad); }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding-bottom: 4px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
.audit-search { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin-bottom: 12px; }
.audit-search label { display: grid; font-size: 0.9em; }
.sign-in { display: grid; gap: 8px; max-width: 420px; }
.session-facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
.session-facts dd { margin: 0; }
.kill { display: grid; gap: 6px; max-width: 600px; margin: 12px 0; }
dialog { border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
.shortcuts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; }
.shortcuts dd { margin: 0; }
`;
