package interactive

// pageScript is the page's JavaScript: it draws a State and sends the user's clicks to
// the API, with the version of the state it showed (a click on a stale view is refused,
// and the page then fetches the current state).
const pageScript = `
(function(){
"use strict";
var $=function(id){return document.getElementById(id);};
var cur=null;
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}
function show(st){$("error").textContent="";render(st);return st;}
function refresh(){return fetch("/api/state").then(function(r){return r.json();}).then(function(st){if(st&&st.version!==undefined)render(st);}).catch(function(){});}
function call(method,path,body){
  return fetch(path,{method:method,body:body}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error(j.error||("HTTP "+r.status));return j;});})
  .then(show).catch(function(e){$("error").textContent=e.message;if(method!=="GET")refresh();});}
function act(path,extra){var b=extra||{};if(cur)b.version=cur.version;return call("POST",path,JSON.stringify(b));}
var deliveries={message:1,request:1,timer:1};
function describe(s){if(!deliveries[s.kind])return s.msg;return s.from+" → "+s.to+"  "+(s.timer?"timer "+s.timer+" ":"")+s.msg;}
function button(s,cls,text,title){var b=document.createElement("button");b.setAttribute("data-id",s.id);if(cls)b.className=cls;
  b.textContent=text;if(title)b.title=title;b.onclick=function(){act("/api/deliver",{id:s.id});};return b;}
// fields puts each top-level field of "{A:1 B:{x:1 y:2}}" on a line of its own.
function fields(t){if(!/^\{.*\}$/.test(t))return t;var out=[],depth=0,q=false,start=1;
  for(var i=1;i<t.length-1;i++){var c=t[i];if(c==='"'&&t[i-1]!=="\\")q=!q;if(q)continue;
    if("{[(".indexOf(c)>=0)depth++;else if("}])".indexOf(c)>=0)depth--;
    else if(c===" "&&depth===0&&/^[A-Za-z_][A-Za-z0-9_]*:/.test(t.slice(i+1))){out.push(t.slice(start,i));start=i+1;}}
  out.push(t.slice(start,t.length-1));return out.join("\n");}
function render(st){
  cur=st;
  $("sys").textContent=st.system;
  $("setup").textContent=st.setup;$("setup").title=st.clients?"what the clients do: "+st.clients:"";
  $("left-budget").textContent=st.faults_left?"left: "+st.faults_left:"";
  var script=st.script||[],steps=st.steps||[],enabled=st.enabled||[];
  var nextID=(script.length&&st.next>=0&&st.next<script.length)?script[st.next].id:null;
  // The pending messages, each with its drop and duplicate beside it; the other faults apart.
  var en=$("enabled"),fl=$("faultlist");en.textContent="";fl.textContent="";
  var on={};(enabled).forEach(function(s){var m=st.fault_of&&st.fault_of[s.id];if(m)(on[m]=on[m]||[]).push(s);});
  var shown={};
  enabled.forEach(function(s){if(!deliveries[s.kind])return;var d=el("div","pending"+(s.id===nextID?" next":""));
    var b=button(s,"msg",describe(s));d.appendChild(b);if(s.id===nextID)b.appendChild(el("span","tag","▶ next"));
    (on[s.id]||[]).forEach(function(f){shown[f.id]=1;d.appendChild(button(f,"fault"+(f.id===nextID?" next":""),f.kind==="drop"?"drop":"dup",f.msg));});
    en.appendChild(d);});
  enabled.forEach(function(s){if(deliveries[s.kind]||shown[s.id])return;var b=button(s,s.id===nextID?"next":"",describe(s));fl.appendChild(b);});
  if(!en.childNodes.length)en.textContent=st.failure?"(none: stopped by the failure)":"(none: no message is on its way)";
  $("faultbox").style.display=fl.childNodes.length?"":"none";
  // The loaded counterexample.
  var sb=$("script");sb.textContent="";$("scriptbox").style.display=script.length?"":"none";
  script.forEach(function(s,i){var on=st.next>=0;var li=el("li",on&&i<st.next?"done":on&&i===st.next?"todo":"",describe(s));sb.appendChild(li);});
  var ban=$("banner");ban.textContent="";
  if(script.length){
    var at=st.next;
    ban.appendChild(el("span","","Loaded: "+(st.loaded||"a counterexample")+" — "+script.length+" steps, recording: "+(st.records||"a violation")+". "));
    if(st.next>=0)ban.appendChild(el("span","","At step "+at+" of "+script.length+". "));
    if(nextID)ban.appendChild(el("span","","Yellow ▶ marks its next step: Next delivers it (or click it). "));
    else if(st.next===script.length)ban.appendChild(el("span","end","This is the violation the file records: "+(st.records||"")+". "));
    if(st.next_note&&st.next!==script.length)ban.appendChild(el("span","note",st.next_note.replace(/^no next step: /,"Next is off: ")+". "));
    if(st.started)ban.appendChild(el("span","","The file's run replaces the system as started ("+st.started+") until Reset."));
  }
  // The steps made, each with the events it caused and the messages it took with it.
  var ol=$("steps");ol.textContent="";
  var start=el("li",steps.length?"back":"now","start"+((st.start_events||[]).length?"  → "+st.start_events.join("; "):""));
  if(steps.length){start.title="Go back to the initial state";start.onclick=function(){act("/api/undo",{to:0});};}
  ol.appendChild(start);
  steps.forEach(function(s,i){var li=el("li",i<steps.length-1?"back":"now",describe(s));
    var c=(st.caused||[])[i];if(c&&c.length)li.appendChild(el("span","caused","  → "+c.join("; ")));
    var l=(st.lost||[])[i];if(l&&l.length)li.appendChild(el("div","lost","lost with it, undelivered: "+l.join("; ")));
    if(i<steps.length-1){li.title="Go back to just after step "+(i+1);li.onclick=function(){act("/api/undo",{to:i+1});};}
    ol.appendChild(li);});
  var v=$("verdict");v.textContent=st.verdict;v.className=/linearizable so far/.test(st.verdict)?"ok":"bad";
  $("why").textContent=st.why||"";$("whybox").style.display=st.why?"":"none";
  $("timeline").textContent=st.timeline||"(no operation invoked yet)";
  var a=$("actors");a.textContent="";(st.actors||[]).forEach(function(x){var d=el("div","actor"+(x.down?" down":""));
    var h=el("div","name",x.name);if(x.down)h.appendChild(el("span","badge"+(x.may_restart?" restart":""),x.may_restart?"crashed — may restart":"crashed for good"));
    d.appendChild(h);if(x.down)d.appendChild(el("div","hint","its memory as it crashed; messages sent to it are lost"));
    var p=el("pre","",fields(x.state));p.setAttribute("data-actor",x.name);d.appendChild(p);a.appendChild(d);});
  $("undo").disabled=!steps.length;$("rewind").disabled=!steps.length;
  $("reset").disabled=!steps.length&&!script.length;
  $("reset").textContent=st.started?"Reset to "+st.system+" as started":"Reset";
  $("reset").title="Back to the initial state of "+st.system+" as the server was started"+(st.started?" ("+st.started+")":"")+"; forgets a loaded counterexample";
  $("next").disabled=!nextID;$("next").title=st.next_note||"Deliver the counterexample's next step";
  $("next").style.display=script.length?"":"none";
  document.body.setAttribute("data-steps",steps.length);document.body.setAttribute("data-fingerprint",st.fingerprint);
  document.body.setAttribute("data-version",st.version);}
$("undo").onclick=function(){act("/api/undo");};
$("rewind").onclick=function(){act("/api/undo",{to:0});};
$("reset").onclick=function(){act("/api/reset");};
$("next").onclick=function(){act("/api/next");};
$("file").onchange=function(e){var f=e.target.files[0];if(!f)return;var name=f.name;
  f.text().then(function(t){e.target.value="";return call("POST","/api/load?name="+encodeURIComponent(name),t);});};
window.addEventListener("focus",refresh);
call("GET","/api/state");
})();
`
