package interactive

// page is the explorer's single page: inline CSS (pageStyle) and JavaScript (pageScript),
// talking only to the API of the server that served it; it loads nothing else.
const page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ravel explore</title>
<style>` + pageStyle + `</style></head><body>
<header id="top">
<h1>ravel explore <span id="sys"></span></h1>
<div id="setup"></div><div id="left-budget"></div>
<div id="bar"><button id="undo" title="Take back the last step">↶ Undo</button><button id="rewind" title="Take back every step; a loaded counterexample stays loaded">⇤ Back to step 0</button><button id="next">Next step of the counterexample ▶</button><button id="reset">Reset</button>
<label id="load">Load a counterexample (a file of ravel check --out): <input type="file" id="file" accept=".json,application/json"></label></div>
<div id="error" role="alert"></div>
<div id="banner"></div>
</header>
<div id="cols"><section id="left">
<h2>Pending messages: click one to deliver it</h2>
<p class="hint">A client's request and the messages between actors are delivered here one at a time. An answer to a client is not a delivery: it enters the history the moment an actor sends it.</p>
<div id="enabled"></div>
<div id="faultbox"><h2>Faults you may inject</h2><div id="faultlist"></div></div>
<div id="scriptbox"><h2>The counterexample's steps</h2><ol id="script"></ol></div>
<h2>Steps so far <small>(click one to go back to just after it)</small></h2><ol id="steps" start="0"></ol>
</section><section id="right">
<h2>Verdict: <span id="verdict"></span></h2><div id="whybox"><div class="hint">why it is not linearizable (as ravel check explains it):</div><pre id="why"></pre></div>
<h2>History <small>(each operation spans its invocation … its response)</small></h2><pre id="timeline"></pre>
<h2>Actors</h2><div id="actors"></div>
</section></div>
<footer class="hint">There is one session per server: every tab of this page drives the same one. A click in a tab that shows an older state is refused, and the tab then shows the current state.</footer>
<script>` + pageScript + `</script></body></html>
`
