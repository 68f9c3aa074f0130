package report

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"slices"
	"strings"
)

// WriteHTML writes p as one self-contained page: inline CSS and JavaScript, no network,
// no external asset. The title, the verdict, the explanation of a violation (first), the
// figures and p.Text are in the HTML itself, so that the page reads without its script;
// the drawn page folds the text away. The script draws the history as operation bars per client and the
// schedule as a message sequence chart, and links them: hovering or clicking a step
// lights the operations it invoked or answered and shows the actors' states after it;
// clicking an operation lights the steps that invoked and answered it. Once drawn, the
// page records on <body> how many operations and steps it drew (data-ops-drawn,
// data-steps-drawn) and how many pairs of operations' drawings meet
// (data-history-overlaps), so a headless browser's DOM dump can be checked.
func WriteHTML(w io.Writer, p Page) error {
	data, err := json.Marshal(p) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	esc := html.EscapeString
	okClass := ""
	if v := p.Verdict; (strings.HasPrefix(v, "no violation") || strings.HasSuffix(v, "linearizable")) && !strings.Contains(v, "not") && !strings.Contains(v, "incomplete") {
		okClass = " ok"
	}
	why := ""
	if p.Why != "" {
		why = `<div id="whybox"><pre id="why">Why it is not linearizable (#n: the operation's place in the longest linearizable prefix found):` + "\n" + esc(p.Why) + "</pre>"
		if slices.ContainsFunc(p.Ops, func(o PageOp) bool { return o.Stuck }) {
			why += `<a id="showstuck" href="#history">Show the operation that cannot follow in the history</a>`
		}
		why += "</div>"
	}
	note := "One bar per operation, from its invocation to its response; [@a→@b] are the steps that invoked and answered it, and #n its place in the longest linearizable prefix found. Click an operation to light its steps."
	switch {
	case p.Recorded && len(p.Ops) == 0:
		note = "The history is empty."
	case p.Recorded:
		note = "One bar per operation, from its call to its return, placed by the order of the history's call and return times (evenly spaced, not to scale); #n is its place in the longest linearizable prefix found, ✗ marks the operation that cannot follow it. A recorded history has no schedule."
	case len(p.Ops) == 0 && len(p.Steps) == 0:
		note = "There is no counterexample to draw (none was found): the page holds the run's figures alone."
	}
	text := ""
	if p.Text != "" {
		what := "The counterexample"
		if p.Recorded {
			what = "The history"
		}
		text = `<details id="astext" open><summary>` + what + ` as text</summary><pre>` + esc(p.Text) + `</pre></details>`
	}
	pending := ""
	if len(p.Pending) > 0 {
		// After the schedule, as the text has it: the message never delivered is often
		// the point of a counterexample.
		var b strings.Builder
		for i, m := range p.Pending {
			if i == maxPendingShown {
				fmt.Fprintf(&b, "… and %d more\n", len(p.Pending)-i)
				break
			}
			b.WriteString(esc(m) + "\n")
		}
		pending = `<div id="pending"><p>Pending at the end (never delivered in this schedule):</p><pre>` + b.String() + `</pre></div>`
	}
	var stats strings.Builder
	for _, r := range p.Stats {
		stats.WriteString("<tr><td>" + esc(r[0]) + "</td><td>" + esc(r[1]) + "</td></tr>")
	}
	page := strings.NewReplacer("{{TITLE}}", esc(p.Title), "{{VERDICT}}", esc(p.Verdict), "{{OK}}", okClass, "{{WHY}}", why,
		"{{NOTE}}", esc(note), "{{TEXT}}", text, "{{PENDING}}", pending, "{{STATS}}", stats.String(), "{{DATA}}", string(data)).Replace(pageTemplate)
	_, err = io.WriteString(w, page)
	return err
}

const pageTemplate = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{{TITLE}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:18px 0 6px}
.verdict{font-weight:600;color:#b00020}.verdict.ok{color:#1b5e20}
table.stats td{padding:1px 10px 1px 0;font-variant-numeric:tabular-nums}
svg text{font:12px ui-monospace,monospace}
.op rect{fill:#cfe3ff;stroke:#3a6fb0}.op.stuck rect{fill:#ffcdd2;stroke:#c62828}.lin{fill:#1b5e20;font-weight:700}
#whybox{background:#fff8e1;border:1px solid #ffe082;padding:6px;margin:10px 0;overflow-x:auto}#why{font-size:12px;margin:0 0 4px;white-space:pre-wrap;overflow-wrap:anywhere}
#history{display:flex;max-width:100%}#hscroll{overflow-x:auto;flex:1;min-width:0}#historynames{flex:none}.sep{stroke:#e4e4e4}#astext pre{font-size:12px;overflow-x:auto}.note{color:#b00020}.op.lit rect{fill:#ffd54f;stroke:#c77800}
.step line{stroke:#555;stroke-width:1.2}.step text{fill:#333}
.step.fault line{stroke:#c62828;stroke-dasharray:4 3}.step.fault text{fill:#c62828}
.step.lit line{stroke:#c77800;stroke-width:2.5}.step.lit text{fill:#c77800;font-weight:700}
.step.sel line{stroke:#d84315;stroke-width:3}
.step{cursor:pointer}.op{cursor:pointer}
.life{stroke:#bbb;stroke-dasharray:2 3}
#layout{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
#states{position:sticky;top:8px;width:360px}
#pending p{margin:8px 0 2px}#pending pre{font-size:12px;margin:0 0 0 16px;white-space:pre-wrap}
#states pre{background:#f6f6f6;border:1px solid #ddd;padding:6px;margin:4px 0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px}
</style></head>
<body>
<h1 id="title">{{TITLE}}</h1><div id="verdict" class="verdict{{OK}}">{{VERDICT}}</div>
<noscript><p class="note">JavaScript is off: the page cannot draw its history and schedule. What it would draw follows as text.</p></noscript>
{{WHY}}
<h2>History</h2><p id="historynote">{{NOTE}}</p>
<div id="history"></div>
{{TEXT}}
<div id="layout"><div><h2>Schedule</h2><p>One lifeline per client and actor, one numbered arrow per delivery (faults dashed red). Hover or click a step.</p><div id="msc"></div>{{PENDING}}</div>
<div id="states"><h2 id="stateshead">States at the start</h2><div id="statesbody"></div></div></div>
<h2>Run</h2><table class="stats" id="stats">{{STATS}}</table>
<script id="data" type="application/json">{{DATA}}</script>
<script>
(function(){
"use strict";
var P=JSON.parse(document.getElementById("data").textContent);
var NS="http://www.w3.org/2000/svg";
function el(tag,attrs,parent,text){var e=document.createElementNS(NS,tag);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;if(parent)parent.appendChild(e);return e;}
// The title, the verdict, the explanation, the figures and the text are in the page
// already; the script draws.
var ops=P.ops||[],steps=P.steps||[];
if(!ops.length&&!steps.length)document.getElementById("history").style.display="none"; // nothing to draw
var tx=document.getElementById("astext");if(tx)tx.open=false; // drawn: the text folds away
// History: x by event index; each client's operations on as many rows (lanes) as keep one
// operation's bar and label off the next's.
// The clients' names stay in a column of their own while the bars scroll sideways.
var X0=36,DX=Math.max(28,Math.min(60,700/Math.max(1,P.events))),RH=26,nc=P.clients;
var hd=document.getElementById("history"),hn=el("svg",{width:40,height:RH*nc+10,id:"historynames"},hd),hsc=document.createElement("div");hsc.id="hscroll";hd.appendChild(hsc);
var hw=X0+DX*(P.events+1)+560,hs=el("svg",{width:hw,height:RH*nc+10,id:"historysvg"},hsc);
// Long outputs are cut in the drawing (the operation's tooltip, the explanation and the
// text hold them whole), or their labels would push the client's operations onto ever
// more rows.
function cut(s,n){return s.length>n?s.slice(0,n-1)+"…":s;}
var opEls=ops.map(function(o,k){
  var g=el("g",{"class":"op"+(o.stuck?" stuck":""),"data-op":k},hs),y=4; // on its lane below
  var x1=X0+DX*o.call,x2=o.ret<0?X0+DX*P.events+DX/2:X0+DX*o.ret;
  el("rect",{x:x1,y:y,width:Math.max(4,x2-x1),height:RH-8,rx:3},g);
  var full=o.label+(o.ret<0?" (no response)":" → "+o.output)+(steps.length?"   [@"+o.callStep+(o.retStep<0?"":"→@"+o.retStep)+"]":"");
  var lab=o.stuck?full:cut(o.label,40)+(o.ret<0?" (no response)":" → "+cut(o.output,30))+(steps.length?"   [@"+o.callStep+(o.retStep<0?"":"→@"+o.retStep)+"]":"");
  el("title",{},g,full+(o.stuck?"; the specification answers "+o.expected:""));
  if(o.stuck)lab+="   ✗ cannot follow the linearizable prefix: the specification answers "+o.expected;
  el("text",{x:x2+6,y:y+13},g,lab);
  if(o.lin>0)el("text",{"class":"lin",x:x1-4,y:y+13,"text-anchor":"end"},g,"#"+o.lin);
  var linked=[o.callStep,o.retStep].filter(function(s){return s>0;});
  g.setAttribute("data-linked-steps",linked.join(","));
  g.addEventListener("click",function(){select(null,k);});
  return g;});
// Lanes: a client's operations in call order, each on its client's first lane whose last
// drawing ends before its own begins (a label drawn after its bar would run over the
// client's next operation on the same row).
var lanes=[],laneOf=[];for(var c=0;c<nc;c++)lanes.push([]);
ops.map(function(o,k){return k;}).sort(function(a,b){return ops[a].client-ops[b].client||ops[a].call-ops[b].call;}).forEach(function(k){
  var bb=opEls[k].getBBox(),L=lanes[ops[k].client],i=0;while(i<L.length&&L[i]>bb.x-8)i++;L[i]=bb.x+bb.width;laneOf[k]=i;});
var rowOf=[],rows=0;for(var c=0;c<nc;c++){rowOf.push(rows);el("text",{x:4,y:RH*rows+18},hn,P.lifelines[c]);if(c>0){el("line",{"class":"sep",x1:0,x2:hw,y1:RH*rows+1,y2:RH*rows+1},hs);el("line",{"class":"sep",x1:0,x2:40,y1:RH*rows+1,y2:RH*rows+1},hn);}rows+=Math.max(1,lanes[c].length);}
opEls.forEach(function(g,k){g.setAttribute("transform","translate(0,"+RH*(rowOf[ops[k].client]+laneOf[k])+")");});
hs.setAttribute("height",RH*rows+10);hn.setAttribute("height",RH*rows+10);
// Message sequence chart.
var L=P.lifelines.length,CW=120,MX=70,SY=46,DY=30;
var MW=MX*2+CW*(L-1)+100,ms=el("svg",{width:MW,height:SY+DY*(steps.length+1),id:"mscsvg"},document.getElementById("msc"));
var defs=el("defs",{},ms),mk=el("marker",{id:"arr",markerWidth:8,markerHeight:8,refX:7,refY:4,orient:"auto",markerUnits:"userSpaceOnUse"},defs);el("path",{d:"M0,0 L8,4 L0,8 z",fill:"#555"},mk);
for(var i=0;i<L;i++){var x=MX+CW*i;el("text",{x:x,y:16,"text-anchor":"middle","font-weight":i<nc?"400":"700"},ms,P.lifelines[i]);el("line",{"class":"life",x1:x,y1:24,x2:x,y2:SY+DY*steps.length+10},ms);}
if(!steps.length)document.getElementById("layout").style.display="none"; // a recorded history has no schedule
var stepEls=steps.map(function(s,j){
  var g=el("g",{"class":"step"+(s.fault?" fault":""),"data-step":s.n,"data-kind":s.kind},ms),y=SY+DY*j;
  var x1=MX+CW*s.from,x2=MX+CW*s.to;if(x1===x2)x2=x1+30;
  el("rect",{x:Math.min(x1,x2)-4,y:y-14,width:Math.abs(x2-x1)+8,height:DY-4,fill:"transparent"},g);
  el("line",{x1:x1,y1:y,x2:x2,y2:y,"marker-end":"url(#arr)"},g);
  // A label starts at its arrow's left end; one that would run past the chart's right
  // edge (an arrow between the right-most lifelines) ends at its arrow's right end
  // instead, and one too long for either widens the chart: no label is cut off.
  var t=el("text",{x:Math.min(x1,x2)+4,y:y-4},g,s.n+"  "+s.msg+(s.fault?"  ["+s.kind+"]":"")),tw=t.getComputedTextLength();
  if(Math.min(x1,x2)+4+tw>MW-4&&Math.max(x1,x2)-4-tw>=4){t.setAttribute("x",Math.max(x1,x2)-4);t.setAttribute("text-anchor","end");}
  else MW=Math.max(MW,Math.min(x1,x2)+4+tw+8);
  g.setAttribute("data-linked-ops",(s.ops||[]).join(","));
  g.addEventListener("mouseenter",function(){select(j,null,true);});
  g.addEventListener("click",function(){select(j,null);});
  return g;});
ms.setAttribute("width",MW);
// Labels that run out of the chart: 0 on a readable page.
var clipped=0;stepEls.forEach(function(g){var b=g.querySelector("text").getBBox();if(b.x<0||b.x+b.width>MW)clipped++;});
document.body.setAttribute("data-labels-clipped",clipped);
var sticky=null;
function showStates(j){
  var head=document.getElementById("stateshead"),body=document.getElementById("statesbody");
  var sts=(j===null?P.initial:steps[j].states)||[];head.textContent=j===null?"States at the start":"States after step "+steps[j].n;
  body.textContent="";sts.forEach(function(s,i){var pre=document.createElement("pre");pre.textContent=P.lifelines[nc+i]+": "+s;body.appendChild(pre);});}
function select(j,k,hover){
  if(hover&&sticky!==null)return; if(!hover)sticky=(j!==null||k!==null)?[j,k]:null;
  opEls.forEach(function(e){e.classList.remove("lit");});stepEls.forEach(function(e){e.classList.remove("lit","sel");});
  if(j!==null){stepEls[j].classList.add("sel");(steps[j].ops||[]).forEach(function(k){opEls[k].classList.add("lit");});showStates(j);document.body.setAttribute("data-selected-step",steps[j].n);}
  if(k!==null){opEls[k].classList.add("lit");[ops[k].callStep,ops[k].retStep].forEach(function(s){if(s>0)stepEls[s-1].classList.add("lit");});document.body.setAttribute("data-selected-op",k);}
}
showStates(null);
// The operation that cannot follow: brought into the history's view at once, and lit by
// the link under the explanation.
var stuck=-1;ops.forEach(function(o,k){if(o.stuck)stuck=k;});
function toStuck(){var b=opEls[stuck].getBBox();hsc.scrollLeft=Math.max(0,b.x-Math.min(200,hsc.clientWidth/4));}
if(stuck>=0){toStuck();var sl=document.getElementById("showstuck");if(sl)sl.addEventListener("click",function(e){e.preventDefault();select(null,stuck);toStuck();opEls[stuck].scrollIntoView({block:"center",inline:"nearest"});});
  var sr=opEls[stuck].getBoundingClientRect(),hr=hsc.getBoundingClientRect();document.body.setAttribute("data-stuck-in-view",sr.x>=hr.x&&sr.x<hr.x+hr.width?"true":"false");}
document.body.setAttribute("data-page-wider",document.documentElement.scrollWidth>document.documentElement.clientWidth?"true":"false");
var wb=document.getElementById("whybox");if(wb)document.body.setAttribute("data-why-wider",wb.scrollWidth>wb.clientWidth?"true":"false"); // an explanation line running off its box
var h=/step=(\d+)/.exec(location.hash);if(h&&+h[1]>=1&&+h[1]<=steps.length)select(+h[1]-1,null); // a link to a step: report.html#step=4
document.body.setAttribute("data-ops-drawn",document.querySelectorAll("#historysvg .op").length);
// Pairs of operations whose drawings (bar, label, place number) meet: 0 on a readable page.
// A sweep in x: each box against the boxes that start before it ends.
var boxes=opEls.map(function(g){return g.getBoundingClientRect();}).sort(function(A,B){return A.x-B.x;}),meet=0;
for(var a=0;a<boxes.length;a++)for(var b=a+1;b<boxes.length&&boxes[b].x<boxes[a].x+boxes[a].width;b++){var A=boxes[a],B=boxes[b];if(A.y<B.y+B.height&&B.y<A.y+A.height)meet++;}
document.body.setAttribute("data-history-overlaps",meet);
document.body.setAttribute("data-steps-drawn",document.querySelectorAll("#mscsvg .step").length);
document.body.setAttribute("data-rendered","true");
})();
</script>
</body></html>
`

// WriteHTMLFile writes p's page to path.
func WriteHTMLFile(path string, p Page) error {
	var b strings.Builder
	if err := WriteHTML(&b, p); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
