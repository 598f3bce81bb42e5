// Loads a speedscope JSON file into speedscope's own built web app
// (node_modules/speedscope, the version package-lock.json pins) in
// headless Chromium, the way speedscope's command line opens a file: a
// script given by the page's #localProfilePath= hash hands the file to
// speedscope.loadFileFromBase64(). Then has speedscope export what it
// loaded (its Export button: its own model of the profiles, written out
// as a file) and prints, for each profile, "WEIGHT<tab>NAME", WEIGHT the
// sum of the sample weights speedscope holds. Fails (exit 1) when the
// page shows an error or the console has one.
//
//	node speedscope-load.mjs PROFILE.json WORKDIR

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBrowser } from '../tools/webdriver.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [profile, work] = process.argv.slice(2);
const app = join(here, 'node_modules/speedscope/dist/release/index.html');
const loader = resolve(work, 'load-profile.js');

writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify('profile.speedscope.json')}, ` +
	`${JSON.stringify(readFileSync(profile).toString('base64'))});\n`);

// A profile's weight as its export gives it: the weights of a sampled
// one, the time its outermost frames are open in an evented one (what
// speedscope writes: samples laid end to end, each as long as its weight).
function totalWeight(p)
{
	let depth = 0, openAt = 0, total = 0;

	if (p.type === 'sampled')
		return p.weights.reduce((a, w) => a + w, 0);
	for (const e of p.events) {
		if (e.type === 'O' && depth++ === 0)
			openAt = e.at;
		else if (e.type === 'C' && --depth === 0)
			total += e.at - openAt;
	}
	return total;
}

await withBrowser(async (b) => {
	await b.open(`file://${app}#localProfilePath=${loader}`);
	// the Export button appears once a profile is loaded
	await b.waitFor(`[...document.querySelectorAll('div')].some((e) => e.textContent.trim() === '⤴️Export')`, 30000);
	const text = await b.exec('return document.body.innerText');
	if (/went wrong|unrecognized format|failed to (import|load|parse)/i.test(text))
		throw new Error(`speedscope shows an error: ${text.slice(0, 300)}`);
	// speedscope's Export saves its own model of the profiles as a file
	// (a Blob behind a download link): keep the Blob, then read it
	await b.exec(`window.pdBlobs = [];
		const create = URL.createObjectURL;
		URL.createObjectURL = (blob) => { window.pdBlobs.push(blob); return create.call(URL, blob); };
		for (const e of document.querySelectorAll('div'))
			if (e.textContent.trim() === '⤴️Export') { e.click(); break; }`);
	await b.waitFor('window.pdBlobs.length > 0', 30000);
	const exported = JSON.parse(await b.execAsync(`const done = arguments[arguments.length - 1];
		window.pdBlobs[0].text().then(done, (e) => done('error: ' + e));`));
	const severe = (await b.consoleLog()).filter((m) => m.level === 'SEVERE');
	if (severe.length)
		throw new Error(`console error: ${severe[0].message}`);
	for (const p of exported.profiles)
		console.log(`${totalWeight(p)}\t${p.name}`);
}).catch((e) => {
	console.error(`speedscope-load: ${e.message}`);
	process.exit(1);
});
