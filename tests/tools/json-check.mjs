// Checks pd-convert --to=json output against its input:
//  - every line is a JSON object (JSON.parse);
//  - lossless: the input, rebuilt from the lines' "raw" bytes (and the
//    "aux" and "blob" bytes that follow some records) at their offsets,
//    is the input byte for byte;
//  - every record has the offset, size, type and misc pd-info --dump
//    shows, and each sample its pid/tid, ip, period and callchain.
//
//	node json-check.mjs INPUT OUTPUT.jsonl PD-INFO-DUMP.txt
// prints one summary line; exits 1 with the first difference.

import { readFileSync } from 'node:fs';

const [input, jsonl, dump] = process.argv.slice(2);
const orig = readFileSync(input);
const lines = readFileSync(jsonl, 'utf8').split('\n');
if (lines.pop() !== '')
	fail('the last line does not end with a newline');

function fail(msg)
{
	console.error(`json-check: ${msg}`);
	process.exit(1);
}

const rebuilt = Buffer.alloc(orig.length);
const covered = new Uint8Array(orig.length);
function put(where, off, hex)
{
	const b = Buffer.from(hex, 'hex');
	if (b.length * 2 !== hex.length)
		fail(`${where}: raw is not hex`);
	if (off + b.length > orig.length)
		fail(`${where}: ${b.length} bytes at ${off} are past the end (${orig.length})`);
	b.copy(rebuilt, off);
	covered.fill(1, off, off + b.length);
}

const recs = [];
let header = null;
lines.forEach((text, i) => {
	let o;
	try {
		o = JSON.parse(text);
	} catch (e) {
		fail(`line ${i + 1}: ${e.message}`);
	}
	if (typeof o !== 'object' || !o.type)
		fail(`line ${i + 1}: not an object with a type`);
	if (o.type === 'header')
		header = o;
	if (o.type === 'record') {
		const off = '0x' + o.offset.toString(16) +
			(o.decompressed ? '+0x' + o.inner_offset.toString(16) : '');
		const name = o.name === 'unknown' ? `unknown record type ${o.record_type}` : o.name;
		let line = `${off} [0x${o.size.toString(16)}]: ${name}(misc ${o.misc})`;
		if (o.name === 'SAMPLE') {
			line += ` ${o.pid ?? 0}/${o.tid ?? 0}: ${o.ip ?? '0'} period: ${o.period ?? 0}`;
			if (o.callchain)
				line += ` callchain: ${o.callchain.length} [${o.callchain.join(' ')}]`;
		}
		recs.push(line);
		if (Buffer.from(o.raw, 'hex').length !== o.size)
			fail(`line ${i + 1}: raw is not ${o.size} bytes`);
		if (o.decompressed)
			return;
	}
	if (o.raw !== undefined && o.offset !== undefined && o.type !== 'attr')
		put(`line ${i + 1}`, o.offset, o.raw);
	if (o.aux !== undefined)
		put(`line ${i + 1} aux`, o.aux_offset, o.aux);
	if (o.blob !== undefined)
		put(`line ${i + 1} blob`, o.blob_offset, o.blob);
});
if (!header)
	fail('no header line');
if (header.raw_source !== 'file')
	fail(`raw bytes from ${header.raw_source}, not the file`);
for (let i = 0; i < orig.length; i++) {
	if (rebuilt[i] !== orig[i])
		fail(`rebuilt input differs at byte ${i} (0x${i.toString(16)})${covered[i] ? '' : ', covered by no line'}`);
}

// pd-info --dump's view of the same records
const want = [];
for (const l of readFileSync(dump, 'utf8').split('\n')) {
	const m = /^(0x[0-9a-f]+(?:\+0x[0-9a-f]+)?) \[(0x[0-9a-f]+)\]: (?:\d+ )?(?:PERF_RECORD_)?([A-Z0-9_]+|unknown record type \d+)\(misc ([0-9a-fx]+)\)(.*)$/.exec(l);
	if (!m)
		continue;
	let line = `${m[1]} [${m[2]}]: ${m[3]}(misc ${m[4]})`;
	if (m[3] === 'SAMPLE') {
		const s = / (\d+)\/(\d+): (\S+) period: (\d+)/.exec(m[5]);
		const c = / callchain: (\d+ \[[^\]]*\])/.exec(m[5]);
		line += ` ${s[1]}/${s[2]}: ${s[3]} period: ${s[4]}`;
		if (c)
			line += ` callchain: ${c[1]}`;
	}
	want.push(line);
}
if (want.length !== recs.length)
	fail(`${recs.length} records, pd-info --dump shows ${want.length}`);
for (let i = 0; i < want.length; i++)
	if (want[i] !== recs[i])
		fail(`record ${i}: pd-info --dump: ${want[i]}\n  json: ${recs[i]}`);
console.log(`${lines.length} lines, ${recs.length} records as pd-info --dump shows them, ${orig.length} bytes rebuilt`);
