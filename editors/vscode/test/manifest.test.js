// Checks the extension's manifest and its contributed files: package.json points at
// files that exist and parse, language-configuration.json is valid, and every snippet
// is well formed, expands to text that the grammar highlights without an invalid token,
// and exists for every declaration keyword of lang/grammar/Mkq.g4.
//
// Usage: node test/manifest.test.js
'use strict';

const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize, EXTENSION_DIR } = require('./textmate');

const errors = [];
const fail = (msg) => errors.push(msg);
const readJson = (rel) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(EXTENSION_DIR, rel), 'utf8'));
  } catch (e) {
    fail(`${rel}: ${e.message}`);
    return null;
  }
};

// Replaces snippet syntax by the text a user gets when accepting every default:
// ${1:default} -> default, ${1|a,b|} -> a, $1 / ${1} -> x (an identifier).
function expandSnippet(body) {
  let text = body;
  for (let previous = null; previous !== text;) {
    previous = text;
    text = text.replace(/\$\{\d+:([^{}]*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, '$1');
  }
  return text.replace(/\$\{\d+\}|\$\d+/g, 'x');
}

async function main() {
  const manifest = readJson('package.json');
  if (!manifest) return;
  if (manifest.name !== 'mkq' || manifest.publisher !== 'mkq') fail('package.json: name and publisher must be "mkq"');
  if (!manifest.engines || !manifest.engines.vscode) fail('package.json: engines.vscode is missing');
  const c = manifest.contributes || {};
  const language = (c.languages || []).find((l) => l.id === 'mkq');
  if (!language) fail('package.json: no contributes.languages entry with id "mkq"');
  else {
    if (!(language.extensions || []).includes('.mkq')) fail('package.json: the mkq language does not claim ".mkq"');
    if (readJson(language.configuration) === null) fail('package.json: the language configuration does not load');
  }
  const grammarEntry = (c.grammars || []).find((g) => g.scopeName === 'source.mkq');
  if (!grammarEntry || grammarEntry.language !== 'mkq') fail('package.json: no grammar source.mkq for language mkq');
  else {
    const g = readJson(grammarEntry.path);
    if (g && g.scopeName !== 'source.mkq') fail(`${grammarEntry.path}: scopeName is ${g.scopeName}, not source.mkq`);
  }

  const config = language ? readJson(language.configuration) : null;
  if (config) {
    if (!config.comments || config.comments.lineComment !== '//') fail('language configuration: lineComment is not "//"');
    for (const key of ['brackets', 'autoClosingPairs', 'surroundingPairs', 'folding', 'indentationRules']) {
      if (!(key in config)) fail(`language configuration: "${key}" is missing`);
    }
    const rules = config.indentationRules || {};
    for (const key of ['increaseIndentPattern', 'decreaseIndentPattern']) {
      try { new RegExp(rules[key]); } catch (e) { fail(`language configuration: ${key}: ${e.message}`); }
    }
    const inc = new RegExp(rules.increaseIndentPattern);
    const dec = new RegExp(rules.decreaseIndentPattern);
    if (!inc.test('worker "w" {') || inc.test('flavor "f" {}') || !dec.test('  }')) {
      fail('language configuration: the indentation rules do not indent after "{" / outdent at "}"');
    }
  }

  const snippetEntry = (c.snippets || []).find((s) => s.language === 'mkq');
  const snippets = snippetEntry ? readJson(snippetEntry.path) : null;
  if (!snippets) {
    fail('package.json: no snippets for mkq');
  } else {
    const { grammar } = await loadGrammar();
    const g4 = fs.readFileSync(path.resolve(EXTENSION_DIR, '..', '..', 'lang', 'grammar', 'Mkq.g4'), 'utf8');
    const identRule = /^ident\s*:([\s\S]*?);/m.exec(g4)[1];
    const declarationTokens = new Set(identRule.match(/\b[A-Z][A-Z_0-9]*\b/g));
    const declarations = [...g4.matchAll(/^([A-Z][A-Z_0-9]*)\s*:\s*'([a-z]+)'\s*;/gm)]
      .filter((m) => declarationTokens.has(m[1])).map((m) => m[2]);
    const prefixes = new Set(Object.values(snippets).map((s) => s.prefix));
    for (const word of [...declarations, 'template', 'for', 'if']) {
      if (!prefixes.has(word)) fail(`snippets: no snippet with prefix "${word}"`);
    }
    for (const [name, s] of Object.entries(snippets)) {
      if (typeof s.prefix !== 'string' || typeof s.description !== 'string' ||
          !(typeof s.body === 'string' || Array.isArray(s.body))) {
        fail(`snippet "${name}": needs a string prefix, a description and a body`);
        continue;
      }
      const text = expandSnippet([].concat(s.body).join('\n'));
      if (text.includes('$')) fail(`snippet "${name}": unexpanded snippet syntax in ${JSON.stringify(text)}`);
      const tokens = tokenize(grammar, text);
      const bad = tokens.filter((t) => t.scopes.some((sc) => sc.startsWith('invalid.')));
      if (bad.length) fail(`snippet "${name}": invalid tokens ${bad.map((t) => JSON.stringify(t.text)).join(', ')} in\n${text}`);
      if (declarations.includes(s.prefix) && !tokens[0].scopes.includes('storage.type.declaration.mkq')) {
        fail(`snippet "${name}": does not start with a highlighted declaration`);
      }
    }
  }

  for (const e of errors) console.log(`FAIL ${e}`);
  if (errors.length) {
    console.log('manifest: FAILED');
    process.exit(1);
  }
  console.log(`manifest: OK (package.json, language configuration, ${Object.keys(snippets).length} snippets)`);
}

main().catch((e) => { console.error(e); process.exit(1); });
