// t0142's browser half: opens pd-flame SVGs in headless Chromium
// (tests/tools/webdriver.mjs) and prints one line per check, "ok|WHAT" or
// "not ok|WHAT|DETAIL", for the shell test to count.
//
//   node browser.mjs SMALL.svg REAL.svg REAL_REGEX REAL_SHARE SHOT.png
//
// SMALL.svg is drawn from t0142's hand-made profile (its shares are
// written below); REAL.svg from a folded testdata profile, where
// searching REAL_REGEX must report REAL_SHARE (worked out by the shell
// test from the folded lines).
import { withBrowser } from '../tools/webdriver.mjs';
import { pathToFileURL } from 'node:url';

const [small, real, realRegex, realShare, shot] = process.argv.slice(2);
const url = (p) => pathToFileURL(p).href;

function report(ok, what, detail)
{
	console.log(ok ? `ok|${what}` : `not ok|${what}|${detail}`);
}

function same(got, want, what)
{
	report(JSON.stringify(got) === JSON.stringify(want), what,
	       `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// a frame's rect, class and label, by name (the shown one when several)
const frameState = `
	const all = Array.from(document.getElementById("frames").children)
		.filter((g) => g.querySelector("title").textContent.split(" (")[0] === arguments[0]);
	const g = all.find((g) => !g.classList.contains("hide")) || all[0];
	const r = g.querySelector("rect");
	return { x: r.getAttribute("x"), width: r.getAttribute("width"),
		 cls: g.getAttribute("class") || "",
		 text: g.querySelector("text").textContent,
		 shown: g.getBoundingClientRect().width > 0 };`;
const nth = (b, name) => b.exec('return window.pdflame.find(arguments[0]) + 1;', name)
	.then((n) => `#frames > g:nth-child(${n}) > rect`);
const text = (b, id) => b.exec(`return document.getElementById("${id}").textContent;`);

await withBrowser(async (b) => {
	await b.open(url(small));
	await b.waitFor('window.pdflame');
	await b.screenshot(shot);
	report(true, `default view screenshot saved: ${shot}`);

	// hover
	await b.hover(await nth(b, 'beta'));
	same(await text(b, 'details'), 'Function: beta (40 samples, 40.00%)',
	     'hover: the details line shows the frame name, count and share');

	// click beta: it spans the width, main is a dimmed parent, other hidden
	await b.click(await nth(b, 'beta'));
	const beta = await b.exec(frameState, 'beta');
	same([beta.x, beta.width, beta.cls], ['10.0', '1180.0', ''],
	     'click: the clicked frame spans the full width');
	const sleep = await b.exec(frameState, 'sleep');
	const work = await b.exec(frameState, 'work');
	same([sleep.x, sleep.width, work.x, work.width], ['10.0', '442.5', '452.5', '737.5'],
	     'click: its children are scaled with it (sleep 15, work 25 of 40)');
	const main = await b.exec(frameState, 'main');
	same([main.cls, main.width], ['parent', '1180.0'],
	     'click: its ancestor is dimmed (class parent) at full width');
	const other = await b.exec(frameState, 'other');
	same([other.cls, other.shown], ['hide', false],
	     'click: a frame outside its subtree is hidden');
	const alpha = await b.exec(frameState, 'alpha');
	same(alpha.cls, 'hide', 'click: its sibling is hidden');
	same(await b.exec('return document.getElementById("unzoom").getAttribute("class");'), '',
	     'click: "Reset Zoom" appears');

	// search inside the zoom: work is 25 of beta's 40
	same(await b.exec('return window.pdflame.search("work");'), 62.5,
	     'search in the zoom: the share of the zoomed frame');
	same(await text(b, 'matched'), 'Matched: 62.50%',
	     'search in the zoom: #matched shows it');
	const fills = await b.exec(`return Array.from(document.querySelectorAll("#frames > g"))
		.filter((g) => !g.classList.contains("hide") &&
			g.querySelector("rect").getAttribute("fill") === "rgb(230,0,230)")
		.map((g) => g.querySelector("title").textContent.split(" ")[0]).sort();`);
	same(fills, ['work'], 'search: the matching visible frames are highlighted');

	// reset zoom: everything back, the search now over the whole graph
	await b.click('#unzoom');
	same(await b.exec('return document.querySelectorAll("#frames > g.hide, #frames > g.parent").length;'), 0,
	     'Reset Zoom: no frame hidden or dimmed');
	same((await b.exec(frameState, 'beta')).width, '472.0',
	     'Reset Zoom: beta back to 40% of 1180 px');
	same(await text(b, 'matched'), 'Matched: 75.00%',
	     'Reset Zoom: the search share over the whole graph (work: 75 of 100)');

	// the Search button: clears, then prompts
	await b.click('#search');
	same(await text(b, 'matched'), ' ', 'Search button while searching: clears the search');
	await b.click('#search');
	await b.answerPrompt('^(idle|sleep)$');
	same(await text(b, 'matched'), 'Matched: 25.00%',
	     'Search button: prompts for a regular expression, share shown (idle 10 + sleep 15)');

	// clicking "all" (the root) resets too
	await b.click(await nth(b, 'alpha'));
	await b.click(await nth(b, 'all'));
	same(await b.exec('return document.querySelectorAll("#frames > g.hide").length;'), 0,
	     'clicking the root frame resets the zoom');

	// ?s= on load, and ?z= (zoom to frame N)
	await b.open(url(small) + '?s=work');
	await b.waitFor('window.pdflame');
	same(await text(b, 'matched'), 'Matched: 75.00%', '?s=REGEX searches on load');

	const errors = (await b.consoleLog()).filter((m) => m.level === 'SEVERE');
	same(errors.map((m) => m.message), [], 'no errors in the browser console');

	// a real profile: the share of a search equals the folded input's
	await b.open(url(real) + '?s=' + encodeURIComponent(realRegex));
	await b.waitFor('window.pdflame');
	same(await text(b, 'matched'), `Matched: ${realShare}%`,
	     `real profile: searching ${realRegex} reports the share of the folded input's counts`);
	const n = await b.exec(`const f = document.querySelectorAll("#frames > g");
		const re = new RegExp(arguments[0]);
		const i = Array.from(f).findIndex((g) =>
			re.test(g.querySelector("title").textContent.split(" (")[0]));
		window.pdflame.zoom(i);
		return document.querySelectorAll("#frames > g:not(.hide)").length + "/" + f.length;`, realRegex);
	report(!n.startsWith('0/') && n.split('/')[0] !== n.split('/')[1],
	       'real profile: zooming hides the frames outside the subtree', n);
});
