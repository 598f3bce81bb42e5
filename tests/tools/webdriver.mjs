// A small W3C WebDriver client for the browser tests: it starts
// chromedriver (Debian's chromium-driver) on a free port, opens a headless
// Chromium session and offers the few commands the tests need. Node 20's
// fetch() is the only dependency, so the tests need nothing from npm.
//
//	import { withBrowser } from './webdriver.mjs';
//	await withBrowser(async (b) => {
//		await b.open('file:///tmp/x.svg');
//		const n = await b.exec('return document.querySelectorAll("g").length');
//		await b.click('#frame-3');
//		await b.screenshot('/tmp/x.png');
//	});
//
// Environment: PD_CHROMEDRIVER (default: chromedriver on PATH),
// PD_CHROMIUM (default /usr/bin/chromium), PD_BROWSER_DEBUG=1 to see
// chromedriver's output.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';

const driverPath = process.env.PD_CHROMEDRIVER || 'chromedriver';
const chromiumPath = process.env.PD_CHROMIUM || '/usr/bin/chromium';
// W3C's key for a found element's handle
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

function sleep(ms)
{
	return new Promise((resolve) => setTimeout(resolve, ms));
}

// Ask the kernel for a free port; chromedriver cannot report the one it
// picked itself.
function freePort()
{
	return new Promise((resolve, reject) => {
		const srv = createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

async function request(base, method, path, body)
{
	const res = await fetch(base + path, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		throw new Error(`webdriver: ${method} ${path}: HTTP ${res.status}: ${text.slice(0, 200)}`);
	}
	const value = json.value;
	if (!res.ok || (value && value.error)) {
		const msg = value && (value.message || value.error);
		throw new Error(`webdriver: ${method} ${path}: ${msg || res.status}`);
	}
	return value;
}

export class Browser {
	constructor(base, sessionId, driver)
	{
		this.base = base;
		this.session = `/session/${sessionId}`;
		this.driver = driver;
	}

	cmd(method, path, body)
	{
		return request(this.base, method, this.session + path, body);
	}

	// Load a URL and wait until the document has loaded.
	async open(url)
	{
		await this.cmd('POST', '/url', { url });
	}

	// Run a function body in the page; `return` gives its value (JSON).
	exec(script, ...args)
	{
		return this.cmd('POST', '/execute/sync', { script, args });
	}

	// The same for code that must wait: the body calls
	// arguments[arguments.length - 1](value) when done.
	execAsync(script, ...args)
	{
		return this.cmd('POST', '/execute/async', { script, args });
	}

	// Poll a page expression until it is truthy; its value, or an error
	// naming the expression after timeoutMs.
	async waitFor(expr, timeoutMs = 10000)
	{
		const end = Date.now() + timeoutMs;
		for (;;) {
			const v = await this.exec(`return (${expr});`);
			if (v)
				return v;
			if (Date.now() > end)
				throw new Error(`webdriver: timed out waiting for ${expr}`);
			await sleep(100);
		}
	}

	async find(selector)
	{
		const el = await this.cmd('POST', '/element', { using: 'css selector', value: selector });
		return el[ELEMENT];
	}

	async findAll(selector)
	{
		const els = await this.cmd('POST', '/elements', { using: 'css selector', value: selector });
		return els.map((e) => e[ELEMENT]);
	}

	// A real pointer click at the element's centre, as a user would.
	async click(selector)
	{
		const id = await this.find(selector);
		await this.cmd('POST', `/element/${id}/click`, {});
	}

	// Move the pointer over an element (hover).
	async hover(selector)
	{
		const id = await this.find(selector);
		await this.cmd('POST', '/actions', {
			actions: [{
				type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
				actions: [{ type: 'pointerMove', duration: 0, origin: { [ELEMENT]: id }, x: 0, y: 0 }],
			}],
		});
	}

	// Type text into the focused element (or the element given).
	async type(selector, text)
	{
		const id = await this.find(selector);
		await this.cmd('POST', `/element/${id}/value`, { text });
	}

	// prompt(), alert() and confirm() dialogs
	alertText()
	{
		return this.cmd('GET', '/alert/text');
	}

	async answerPrompt(text)
	{
		await this.cmd('POST', '/alert/text', { text });
		await this.cmd('POST', '/alert/accept', {});
	}

	// The browser console's messages so far (level, message), so a test
	// can require that a page loaded without errors.
	async consoleLog()
	{
		try {
			return await this.cmd('POST', '/se/log', { type: 'browser' });
		} catch {
			return request(this.base, 'POST', this.session + '/log', { type: 'browser' });
		}
	}

	async screenshot(path)
	{
		const png = await this.cmd('GET', '/screenshot');
		await writeFile(path, Buffer.from(png, 'base64'));
	}

	async close()
	{
		try {
			await request(this.base, 'DELETE', this.session);
		} finally {
			this.driver.kill();
		}
	}
}

// Start chromedriver and a headless Chromium session of the given window
// size.
export async function openBrowser({ width = 1280, height = 900 } = {})
{
	const port = await freePort();
	const debug = process.env.PD_BROWSER_DEBUG === '1';
	const driver = spawn(driverPath, [`--port=${port}`], {
		stdio: ['ignore', debug ? 'inherit' : 'ignore', debug ? 'inherit' : 'ignore'],
	});
	let failed = null;
	driver.once('error', (e) => { failed = e; });
	const base = `http://127.0.0.1:${port}`;
	const end = Date.now() + 20000;
	for (;;) {
		if (failed)
			throw new Error(`webdriver: cannot start ${driverPath}: ${failed.message}`);
		try {
			const st = await request(base, 'GET', '/status');
			if (st && st.ready)
				break;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > end) {
			driver.kill();
			throw new Error(`webdriver: ${driverPath} did not start on port ${port}`);
		}
		await sleep(100);
	}
	let s;
	try {
		s = await request(base, 'POST', '/session', {
			capabilities: {
				alwaysMatch: {
					browserName: 'chrome',
					'goog:loggingPrefs': { browser: 'ALL' },
					'goog:chromeOptions': {
						binary: chromiumPath,
						args: ['--headless=new', '--no-sandbox', '--disable-gpu',
							'--disable-dev-shm-usage', '--allow-file-access-from-files',
							`--window-size=${width},${height}`],
					},
				},
			},
		});
	} catch (e) {
		driver.kill();
		throw e;
	}
	return new Browser(base, s.sessionId, driver);
}

// Run fn(browser) and always close the browser afterwards.
export async function withBrowser(fn, opts)
{
	const b = await openBrowser(opts);
	try {
		return await fn(b);
	} finally {
		await b.close();
	}
}
