// The mkq extension's client: starts `mkq lsp` (the language server, docs/lsp.md)
// over stdio for .mkq files. Highlighting, snippets and the language configuration
// are declarative (package.json); everything the server knows — diagnostics, hover,
// completion, definitions, rename, formatting — comes from the mkq binary, so the
// extension never disagrees with `mkq check`.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

// The mkq binary: the setting `mkq.path`, else `mkq` on PATH. A leading `~/` is
// the home directory, as in a shell.
function serverCommand() {
  const configured = vscode.workspace.getConfiguration('mkq').get('path', 'mkq').trim() || 'mkq';
  if (configured.startsWith('~/')) return require('os').homedir() + configured.slice(1);
  return configured;
}

async function start(context) {
  const command = serverCommand();
  const server = { command, args: ['lsp'], transport: TransportKind.stdio };
  client = new LanguageClient(
    'mkq',
    'mkq language server',
    { run: server, debug: server },
    {
      documentSelector: [{ language: 'mkq' }],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.mkq') },
    },
  );
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    const choice = await vscode.window.showErrorMessage(
      `mkq: cannot start the language server '${command} lsp': ${error.message || error}. ` +
        'Set "mkq.path" to the mkq binary.',
      'Open settings',
    );
    if (choice === 'Open settings') vscode.commands.executeCommand('workbench.action.openSettings', 'mkq.path');
  }
}

async function stop() {
  if (!client) return;
  const running = client;
  client = undefined;
  await running.stop();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('mkq.restartServer', async () => {
      await stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration('mkq.path')) return;
      await stop();
      await start(context);
    }),
  );
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
