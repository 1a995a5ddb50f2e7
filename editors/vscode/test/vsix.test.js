// Checks a packaged extension (the .vsix `vsce package` wrote): it holds the client
// and its runtime dependency, the grammar, the snippets, the language configuration,
// the icon and a package.json with the fields the marketplace and VS Code read
// (repository, license, icon, main, the settings); and none of the tests.
//
// Usage: node test/vsix.test.js FILE.vsix
'use strict';

const fs = require('fs');
const zlib = require('zlib');

// The entries of a zip archive (a .vsix is one), by name: { method, data offset, size }.
function readZip(buffer) {
  const eocd = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = buffer.readUInt16LE(eocd + 10);
  let at = buffer.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = buffer.readUInt16LE(at + 10);
    const compressed = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    const data = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    entries.set(name, { method, data, compressed });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function contents(buffer, entry) {
  const raw = buffer.subarray(entry.data, entry.data + entry.compressed);
  if (entry.method === 0) return raw;
  if (entry.method === 8) return zlib.inflateRawSync(raw);
  throw new Error(`unsupported compression method ${entry.method}`);
}

function main() {
  const file = process.argv[2];
  if (!file) {
    console.log('usage: node test/vsix.test.js FILE.vsix');
    process.exit(2);
  }
  const buffer = fs.readFileSync(file);
  const entries = readZip(buffer);
  const errors = [];
  const expect = (ok, msg) => {
    if (!ok) errors.push(msg);
  };

  for (const name of [
    'extension/extension.js',
    'extension/package.json',
    'extension/language-configuration.json',
    'extension/syntaxes/mkq.tmLanguage.json',
    'extension/snippets/mkq.json',
    'extension/images/icon.png',
    'extension/node_modules/vscode-languageclient/package.json',
    'extension/node_modules/vscode-languageclient/node.js',
    'extension.vsixmanifest',
  ]) {
    expect(entries.has(name), `${file} lacks ${name}`);
  }
  for (const name of entries.keys()) {
    expect(!name.startsWith('extension/test/'), `${file} holds a test file: ${name}`);
    expect(!name.startsWith('extension/node_modules/@vscode/vsce') && !name.startsWith('extension/node_modules/vscode-tmgrammar-test'),
      `${file} holds a development tool: ${name}`);
  }

  if (entries.has('extension/package.json')) {
    const manifest = JSON.parse(contents(buffer, entries.get('extension/package.json')).toString('utf8'));
    expect(manifest.main === './extension.js', `package.json: main is './extension.js', found ${manifest.main}`);
    expect(typeof manifest.license === 'string' && manifest.license !== '', 'package.json: license is set');
    expect(manifest.repository && typeof manifest.repository.url === 'string' && manifest.repository.url !== '',
      'package.json: repository.url is set');
    expect(manifest.icon === 'images/icon.png', `package.json: icon is images/icon.png, found ${manifest.icon}`);
    expect((manifest.activationEvents || []).includes('onLanguage:mkq'), 'package.json: activates on mkq documents');
    expect(manifest.dependencies && manifest.dependencies['vscode-languageclient'],
      'package.json: depends on vscode-languageclient');
    const properties = ((manifest.contributes || {}).configuration || {}).properties || {};
    expect(properties['mkq.path'] && properties['mkq.path'].default === 'mkq', 'package.json: setting mkq.path, default "mkq"');
    const trace = properties['mkq.trace.server'];
    expect(trace && JSON.stringify(trace.enum) === '["off","messages","verbose"]', 'package.json: setting mkq.trace.server');
  }
  if (entries.has('extension/images/icon.png')) {
    const icon = contents(buffer, entries.get('extension/images/icon.png'));
    expect(icon.subarray(1, 4).toString('latin1') === 'PNG', 'images/icon.png is a PNG');
    expect(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128, 'images/icon.png is at least 128x128');
  }
  if (entries.has('extension.vsixmanifest')) {
    const vsixManifest = contents(buffer, entries.get('extension.vsixmanifest')).toString('utf8');
    expect(vsixManifest.includes('Microsoft.VisualStudio.Services.Icons.Default'), 'extension.vsixmanifest names the icon');
  }

  if (errors.length) {
    for (const e of errors) console.log(`FAIL ${e}`);
    process.exit(1);
  }
  console.log(`vsix: OK (${entries.size} files: the client, vscode-languageclient, grammar, snippets, icon, package.json)`);
}

main();
