// The extension's client without VS Code: `vscode` and `vscode-languageclient/node`
// are replaced by fakes that record what extension.js asks of them. Checks that the
// server is `mkq lsp` over stdio (or the `mkq.path` setting's binary, `~/` expanded),
// for mkq documents only; that changing `mkq.path` restarts it with the new binary;
// and that a server that cannot start is reported with a way to the setting.
//
// Usage: node test/client.test.js
'use strict';

const Module = require('module');
const os = require('os');
const path = require('path');

const errors = [];
const expect = (ok, msg) => {
  if (!ok) errors.push(msg);
};

// ---------------------------------------------------------------- fakes

const settings = { path: 'mkq' };
const clients = [];  // every LanguageClient made, in order
const shownErrors = [];
let configurationListener = null;
let failNextStart = false;

const fakeVscode = {
  workspace: {
    getConfiguration: (section) => ({
      get: (key, fallback) => (section === 'mkq' && key in settings ? settings[key] : fallback),
    }),
    createFileSystemWatcher: (glob) => ({ glob }),
    onDidChangeConfiguration: (listener) => {
      configurationListener = listener;
      return { dispose() {} };
    },
  },
  window: {
    showErrorMessage: async (message, ...items) => {
      shownErrors.push({ message, items });
      return undefined;
    },
  },
  commands: {
    registerCommand: (id, run) => ({ id, run, dispose() {} }),
    executeCommand: async () => undefined,
  },
};

class FakeLanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
    clients.push(this);
  }
  async start() {
    if (failNextStart) {
      failNextStart = false;
      throw new Error('spawn /nowhere/mkq ENOENT');
    }
    this.started = true;
  }
  async stop() {
    this.stopped = true;
  }
}
const fakeClientModule = { LanguageClient: FakeLanguageClient, TransportKind: { stdio: 0, ipc: 1 } };

const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'vscode') return fakeVscode;
  if (request === 'vscode-languageclient/node') return fakeClientModule;
  return originalLoad.call(this, request, parent, isMain);
};

// ---------------------------------------------------------------- the checks

async function main() {
  const extension = require(path.join(__dirname, '..', 'extension.js'));
  const context = { subscriptions: [] };

  await extension.activate(context);
  expect(clients.length === 1, `activate starts one client, made ${clients.length}`);
  const first = clients[0];
  expect(first.id === 'mkq', `the client id is 'mkq' (it reads the setting mkq.trace.server), found '${first.id}'`);
  expect(first.started, 'the client is started');
  const run = first.serverOptions.run;
  expect(run.command === 'mkq', `the default server is 'mkq' on PATH, found '${run.command}'`);
  expect(JSON.stringify(run.args) === '["lsp"]', `the server is started as 'mkq lsp', args ${JSON.stringify(run.args)}`);
  expect(run.transport === fakeClientModule.TransportKind.stdio, 'the server speaks over stdio');
  expect(JSON.stringify(first.clientOptions.documentSelector) === '[{"language":"mkq"}]',
    `the client serves mkq documents only: ${JSON.stringify(first.clientOptions.documentSelector)}`);
  expect(context.subscriptions.some((s) => s.id === 'mkq.restartServer'), 'the command mkq.restartServer is registered');

  // Another binary: the server restarts with it; `~/` is the home directory.
  settings.path = '~/bin/mkq';
  await configurationListener({ affectsConfiguration: (key) => key === 'mkq.path' });
  expect(first.stopped, 'changing mkq.path stops the running server');
  expect(clients.length === 2 && clients[1].serverOptions.run.command === path.join(os.homedir(), 'bin/mkq'),
    `changing mkq.path starts ~/bin/mkq, found ${clients.length > 1 ? clients[1].serverOptions.run.command : 'none'}`);

  // Another setting: nothing restarts.
  await configurationListener({ affectsConfiguration: (key) => key === 'editor.tabSize' });
  expect(clients.length === 2 && !clients[1].stopped, 'another setting leaves the server running');

  // A binary that cannot start: an error that names it and offers the setting.
  settings.path = '/nowhere/mkq';
  failNextStart = true;
  await configurationListener({ affectsConfiguration: (key) => key === 'mkq.path' });
  expect(shownErrors.length === 1, `a server that cannot start is reported once, ${shownErrors.length} messages`);
  if (shownErrors.length === 1) {
    const { message, items } = shownErrors[0];
    expect(message.includes("'/nowhere/mkq lsp'") && message.includes('ENOENT'), `the message names the command: ${message}`);
    expect(items.includes('Open settings'), 'the message offers the settings');
  }
  await extension.deactivate();  // no client: nothing to stop, no error

  if (errors.length) {
    for (const e of errors) console.log(`FAIL ${e}`);
    process.exit(1);
  }
  console.log('client: OK (mkq lsp over stdio, mkq.path, restart, start failure)');
}

main().catch((e) => {
  console.log(`FAIL ${e.stack || e}`);
  process.exit(1);
});
