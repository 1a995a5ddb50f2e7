// Keeps the TextMate grammar in sync with the keywords of lang/grammar/Mkq.g4.
//
// Every lexer rule `NAME : 'word' ;` of Mkq.g4 whose word is alphabetic is a keyword.
// Its expected highlighting follows from the parser rules:
//   - a token of the `ident` rule is a soft declaration keyword: storage.type.declaration
//     where it starts a block (`worker "w" {`), a plain name elsewhere (`worker = 1`);
//   - a token that is a whole alternative of `primary` (TRUE, NULL, ...) is a literal:
//     constant.language.*;
//   - any other keyword is hard, reserved everywhere: keyword.control.*.
// The test fails when a g4 keyword is not highlighted that way, and when the TextMate
// grammar highlights as a keyword a word that Mkq.g4 does not declare. It then checks
// itself: a g4 with an extra keyword and a g4 with a keyword removed must both fail.
//
// Usage: node test/keywords.test.js [path/to/Mkq.g4]
'use strict';

const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize, EXTENSION_DIR } = require('./textmate');

const DEFAULT_G4 = path.resolve(EXTENSION_DIR, '..', '..', 'lang', 'grammar', 'Mkq.g4');
const KEYWORD_SCOPE = /^(keyword\.control|storage\.type|constant\.language|keyword\.other\.declaration)(\.|$)/;

// The body of parser rule `name` (from its ':' to its ';').
function ruleBody(g4, name) {
  const m = new RegExp(`^${name}\\s*:([\\s\\S]*?);`, 'm').exec(g4);
  if (!m) throw new Error(`Mkq.g4 has no rule '${name}'`);
  return m[1];
}

// {word, token, kind} for every alphabetic literal lexer rule; kind is
// 'declaration', 'literal' or 'hard'.
function g4Keywords(g4) {
  const soft = new Set(ruleBody(g4, 'ident').match(/\b[A-Z][A-Z_0-9]*\b/g));
  const literal = new Set();
  for (const alt of ruleBody(g4, 'primary').split(/\n\s*\|/)) {
    const m = /^\s*([A-Z][A-Z_0-9]*)\s*(#\s*\w+)?\s*$/.exec(alt);
    if (m) literal.add(m[1]);
  }
  const keywords = [];
  const lexerRule = /^([A-Z][A-Z_0-9]*)\s*:\s*'([A-Za-z]+)'\s*;/gm;
  for (let m; (m = lexerRule.exec(g4)) !== null;) {
    const [, token, word] = m;
    const kind = soft.has(token) ? 'declaration' : literal.has(token) ? 'literal' : 'hard';
    keywords.push({ word, token, kind });
  }
  if (keywords.length === 0) throw new Error('no keyword found in Mkq.g4: has its lexer changed format?');
  return keywords;
}

// Every word that occurs in a regular expression of the TextMate grammar: the words it
// could possibly highlight as keywords.
function grammarWords(json) {
  const words = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (['match', 'begin', 'end', 'while'].includes(key) && typeof value === 'string') {
        for (const w of value.match(/[A-Za-z][A-Za-z0-9_]*/g) || []) words.add(w);
      } else {
        visit(value);
      }
    }
  };
  visit(json);
  return words;
}

// The scopes of `word` placed at the marker of each context line.
const CONTEXTS = [
  { name: 'statement', line: (w) => `${w}` },
  { name: 'expression', line: (w) => `x = a ${w} b` },
  { name: 'value', line: (w) => `x = ${w}` },
  { name: 'block start', line: (w) => `${w} "label" {` },
  { name: 'unlabelled block start', line: (w) => `${w} {` },
  { name: 'attribute', line: (w) => `${w} = 1` },
];

function scopesAt(grammar, line, word) {
  const col = line.search(new RegExp(`(?<![A-Za-z0-9_])${word}(?![A-Za-z0-9_])`));
  const token = tokenize(grammar, line).find((t) => t.start <= col && col < t.start + t.text.length);
  return token ? token.scopes : [];
}

function check(grammar, grammarJson, g4) {
  const errors = [];
  const keywords = g4Keywords(g4);
  const expect = (kw, context, wanted) => {
    const line = CONTEXTS.find((c) => c.name === context).line(kw.word);
    const scopes = scopesAt(grammar, line, kw.word);
    if (!scopes.some((s) => wanted.test(s))) {
      errors.push(`${kw.token} '${kw.word}' (${kw.kind} keyword of Mkq.g4) in \`${line}\`: ` +
                  `expected a scope matching ${wanted}, got [${scopes.join(' ')}]`);
    }
  };
  for (const kw of keywords) {
    if (kw.kind === 'declaration') {
      expect(kw, 'block start', /^storage\.type\.declaration\.mkq$/);
      expect(kw, 'unlabelled block start', /^storage\.type\.declaration\.mkq$/);
      expect(kw, 'attribute', /^variable\.other\.property\.mkq$/);  // soft: a field name too
      expect(kw, 'value', /^variable\.other\.mkq$/);
    } else if (kw.kind === 'literal') {
      expect(kw, 'value', /^constant\.language\./);
      expect(kw, 'expression', /^constant\.language\./);
    } else {
      expect(kw, 'statement', /^keyword\.control\./);
      expect(kw, 'expression', /^keyword\.control\./);
    }
  }
  const known = new Set(keywords.map((k) => k.word));
  for (const word of grammarWords(grammarJson)) {
    if (known.has(word)) continue;
    for (const context of CONTEXTS) {
      const line = context.line(word);
      const scopes = scopesAt(grammar, line, word);
      const offending = scopes.filter((s) => KEYWORD_SCOPE.test(s));
      if (offending.length > 0) {
        errors.push(`'${word}' is highlighted as a keyword (${offending.join(' ')}) in \`${line}\`, ` +
                    'but Mkq.g4 has no such keyword');
        break;
      }
    }
  }
  return { errors, keywords };
}

async function main() {
  const g4Path = process.argv[2] || DEFAULT_G4;
  const g4 = fs.readFileSync(g4Path, 'utf8');
  const { grammar, grammarPath } = await loadGrammar();
  const grammarJson = JSON.parse(fs.readFileSync(grammarPath, 'utf8'));

  const { errors, keywords } = check(grammar, grammarJson, g4);
  for (const e of errors) console.log(`FAIL ${e}`);
  const byKind = (k) => keywords.filter((x) => x.kind === k).map((x) => x.word).join(' ');
  console.log(`${keywords.length} keywords of ${path.relative(process.cwd(), g4Path)}:`);
  console.log(`  hard:        ${byKind('hard')}`);
  console.log(`  literal:     ${byKind('literal')}`);
  console.log(`  declaration: ${byKind('declaration')}`);

  // The check must notice drift in both directions.
  const added = g4.replace(/^(IMPORT\s*:)/m, "EXPORTS : 'exports' ;\n$1");
  const removedWord = keywords.find((k) => k.kind === 'hard').word;
  const removed = g4.replace(new RegExp(`^[A-Z_]+\\s*:\\s*'${removedWord}'\\s*;\\s*$`, 'm'), '');
  const selfTests = [
    ['a keyword added to Mkq.g4 only', added, /'exports'/],
    [`a keyword ('${removedWord}') removed from Mkq.g4 only`, removed, new RegExp(`'${removedWord}' is highlighted`)],
  ];
  let selfTestFailed = false;
  for (const [what, text, expected] of selfTests) {
    const r = check(grammar, grammarJson, text);
    if (text === g4 || !r.errors.some((e) => expected.test(e))) {
      console.log(`FAIL self-test: ${what} is not detected`);
      selfTestFailed = true;
    }
  }
  if (errors.length > 0 || selfTestFailed) {
    console.log('keyword sync: FAILED (update syntaxes/mkq.tmLanguage.json and test/grammar/keywords.test.mkq)');
    process.exit(1);
  }
  console.log('keyword sync: OK (every keyword of Mkq.g4 is highlighted, and no other word is)');
}

main().catch((e) => { console.error(e); process.exit(1); });
