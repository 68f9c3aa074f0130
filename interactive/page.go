package interactive

// page is the explorer's single page: inline CSS and JavaScript, talking only to the
// API of the server that served it.
const page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ravel explore</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:20px;margin:0 0 8px}h2{font-size:15px;margin:14px 0 6px}
#cols{display:flex;gap:20px;align-items:flex-start}#left{width:520px}#right{flex:1;min-width:360px}
button{font:inherit;margin:2px 4px 2px 0;padding:2px 8px;cursor:pointer}
.pending button{font:12px ui-monospace,monospace;text-align:left;width:100%}
.next button{background:#ffd54f}
pre{background:#f6f6f6;border:1px solid #ddd;padding:6px;margin:4px 0;white-space:pre-wrap;word-break:break-all;font-size:12px}
ol{font:12px ui-monospace,monospace;padding-left:28px;margin:4px 0}
#verdict{font-weight:600}#verdict.bad{color:#b00020}#verdict.ok{color:#1b5e20}
#error{color:#b00020}
</style></head><body>
<h1>ravel explore <span id="sys"></span> <small id="faults"></small></h1>
<div><button id="undo">Undo</button><button id="reset">Reset</button><button id="next">Next step of the loaded schedule</button>
<label>Load a counterexample: <input type="file" id="file" accept=".json"></label></div>
<div id="error"></div>
<div id="cols"><div id="left">
<h2>Pending deliveries (click one to deliver it)</h2><div id="enabled"></div>
<h2>Steps so far</h2><ol id="steps"></ol>
</div><div id="right">
<h2>Verdict: <span id="verdict"></span></h2>
<h2>History</h2><pre id="timeline"></pre>
<h2>Actors</h2><div id="actors"></div>
</div></div>
<script>
(function(){
"use strict";
var $=function(id){return document.getElementById(id);};
function call(method,path,body){
  return fetch(path,{method:method,body:body}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error(j.error);return j;});})
  .then(function(st){$("error").textContent="";render(st);return st;}).catch(function(e){$("error").textContent=e.message;});}
function describe(s){return s.from+" → "+s.to+"  "+s.msg+(s.kind!=="message"&&s.kind!=="request"?"  ["+s.kind+"]":"");}
function render(st){
  $("sys").textContent=st.system;$("faults").textContent=st.faults?"faults: "+st.faults:"";
  var en=$("enabled");en.textContent="";
  var nextID=(st.script&&st.next>=0&&st.next<st.script.length)?st.script[st.next].id:null;
  (st.enabled||[]).forEach(function(s){var d=document.createElement("div");d.className="pending"+(s.id===nextID?" next":"");
    var b=document.createElement("button");b.textContent=describe(s);b.setAttribute("data-id",s.id);
    b.onclick=function(){call("POST","/api/deliver",JSON.stringify({id:s.id}));};d.appendChild(b);en.appendChild(d);});
  if(!(st.enabled||[]).length)en.textContent=st.failure?"(stopped by the failure)":"(none: the system is quiescent)";
  var ol=$("steps");ol.textContent="";(st.steps||[]).forEach(function(s){var li=document.createElement("li");li.textContent=describe(s);ol.appendChild(li);});
  var v=$("verdict");v.textContent=st.verdict;v.className=/linearizable so far/.test(st.verdict)?"ok":"bad";
  $("timeline").textContent=st.timeline||"(no operation invoked yet)";
  var a=$("actors");a.textContent="";(st.actors||[]).forEach(function(x){var p=document.createElement("pre");p.textContent=x.name+": "+x.state;a.appendChild(p);});
  $("next").disabled=!nextID;
  document.body.setAttribute("data-steps",(st.steps||[]).length);document.body.setAttribute("data-fingerprint",st.fingerprint);}
$("undo").onclick=function(){call("POST","/api/undo");};
$("reset").onclick=function(){call("POST","/api/reset");};
$("next").onclick=function(){call("POST","/api/next");};
$("file").onchange=function(e){var f=e.target.files[0];if(!f)return;f.text().then(function(t){call("POST","/api/load",t);});};
call("GET","/api/state");
})();
</script></body></html>
`
