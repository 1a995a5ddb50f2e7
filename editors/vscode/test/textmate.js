// Loads the mkq TextMate grammar headlessly (vscode-textmate + WASM oniguruma from
// node_modules, the same engine VS Code uses) and tokenizes text with it.
'use strict';

const fs = require('fs');
const path = require('path');
const textmate = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const EXTENSION_DIR = path.resolve(__dirname, '..');

async function loadGrammar() {
  const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION_DIR, 'package.json'), 'utf8'));
  const contribution = manifest.contributes.grammars.find((g) => g.scopeName === 'source.mkq');
  const grammarPath = path.join(EXTENSION_DIR, contribution.path);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.mkq') return null;
      return textmate.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath);
    },
  });
  const grammar = await registry.loadGrammar('source.mkq');
  if (!grammar) throw new Error(`cannot load the grammar ${grammarPath}`);
  return { grammar, grammarPath };
}

// Tokenizes `text` line by line; returns [{line, start, text, scopes}] for every token.
function tokenize(grammar, text) {
  const result = [];
  let ruleStack = textmate.INITIAL;
  text.split('\n').forEach((line, n) => {
    const r = grammar.tokenizeLine(line, ruleStack);
    ruleStack = r.ruleStack;
    for (const t of r.tokens) {
      result.push({ line: n, start: t.startIndex, text: line.substring(t.startIndex, t.endIndex), scopes: t.scopes });
    }
  });
  return result;
}

module.exports = { loadGrammar, tokenize, EXTENSION_DIR };

// `node test/textmate.js FILE` prints the tokens of FILE (a debugging aid).
if (require.main === module) {
  (async () => {
    const { grammar } = await loadGrammar();
    const text = fs.readFileSync(process.argv[2], 'utf8');
    for (const t of tokenize(grammar, text)) {
      if (t.text.trim() === '') continue;
      console.log(`${t.line + 1}\t${JSON.stringify(t.text)}\t${t.scopes.slice(1).join(' ')}`);
    }
  })().catch((e) => { console.error(e); process.exit(1); });
}
