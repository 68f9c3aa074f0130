package interactive

// pageStyle is the page's CSS.
const pageStyle = `
*{box-sizing:border-box}
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}
header{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ccc;padding:8px 16px 6px}
h1{font-size:20px;margin:0}h2{font-size:15px;margin:14px 0 6px}h2 small{font-weight:400;color:#666}
#setup{font-size:13px;color:#333}#left-budget{font-size:13px;color:#6d4c41}
#bar{margin-top:4px;display:flex;flex-wrap:wrap;align-items:center;gap:4px}
#load{font-size:13px;margin-left:8px}
button{font:inherit;padding:2px 8px;cursor:pointer}button:disabled{cursor:default}
#error{color:#b00020;font-weight:600}#error:empty,#banner:empty{display:none}
#banner{margin-top:4px;padding:4px 8px;background:#fff8e1;border:1px solid #ffd54f;font-size:13px}
#banner .note{color:#8d6e00;font-weight:600}#banner .end{color:#b00020;font-weight:600}
#cols{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start;padding:0 16px}
#left{flex:1 1 420px;min-width:0;max-width:660px}#right{flex:1 1 380px;min-width:0}
.hint{font-size:12px;color:#666;margin:2px 0 6px}
footer{padding:8px 16px 16px}
#enabled{max-height:45vh;overflow:auto}
.pending{display:flex;gap:4px;margin:2px 0}
.pending button,#faultlist button{font:12px ui-monospace,monospace;text-align:left;overflow-wrap:anywhere}
.pending .msg{flex:1}
.pending .fault{flex:none;font-size:11px;color:#6d4c41}
#faultlist{display:flex;flex-wrap:wrap;gap:4px}
.next .msg,#faultlist .next,.pending .next{background:#ffd54f;border-color:#c79a00}
.tag{font:11px system-ui,sans-serif;background:#ffd54f;padding:0 4px;border-radius:3px;margin-left:4px}
ol{font:12px ui-monospace,monospace;padding-left:32px;margin:4px 0}
ol li{padding:1px 2px;overflow-wrap:anywhere}
#steps li.back{cursor:pointer}#steps li.back:hover{background:#e3f2fd}
#steps li.now{font-weight:600}
.caused{color:#1b5e20}.lost{color:#b00020}
#script li.done{color:#777}#script li.done::marker{content:"✓ "}#script li.todo::marker{content:"▶ "}
#script li.todo{background:#ffd54f}
pre{background:#f6f6f6;border:1px solid #ddd;padding:6px;margin:4px 0;font-size:12px}
#timeline,#why{white-space:pre;overflow-x:auto}
#verdict{font-weight:600}#verdict.bad{color:#b00020}#verdict.ok{color:#1b5e20}
.actor{border:1px solid #ddd;background:#f6f6f6;margin:4px 0;padding:4px 6px}
.actor .name{font-weight:600}
.actor pre{background:none;border:0;padding:0;margin:2px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.actor.down{background:#eee;color:#888}
.badge{display:inline-block;font-size:11px;font-weight:600;color:#fff;background:#b00020;border-radius:3px;padding:0 5px;margin-left:6px}
.badge.restart{background:#8d6e00}
@media (max-width:700px){header{padding:6px 8px}#cols{padding:0 8px}footer{padding:8px}#load{margin-left:0}#enabled{max-height:35vh}}
@media (max-height:520px){header{position:static}}
`
