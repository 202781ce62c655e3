// Shows what an editor's YAML language server says about a file: it starts Red Hat's
// yaml-language-server (the one VS Code, Helix and Neovim run) over stdio as an editor
// does, opens the text on standard input as if it were FILE (so the file's
// `# yaml-language-server: $schema=...` modeline is followed from FILE's folder), and prints
// the diagnostics the server publishes, one a line: `LINE:COLUMN message`.
//
//   npm install --prefix /tmp/yls yaml-language-server
//   sed 's/facing: 0 *$/facng: 0/' scenarios/romans_vs_vikings.yaml |
//     node docs/yaml-ls-check.mjs /tmp/yls scenarios/romans_vs_vikings.yaml
//
// Arguments: the folder npm installed yaml-language-server into, and FILE. It exits with 1
// when the server found a problem, 0 when it found none, 2 when it did not answer. Nothing
// here is part of `cargo test`; see docs/editors.md.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [prefix, file] = process.argv.slice(2);
if (!prefix || !file) {
  console.error("usage: node yaml-ls-check.mjs NPM_PREFIX FILE < TEXT");
  process.exit(2);
}
const server = join(prefix, "node_modules", "yaml-language-server", "bin", "yaml-language-server");
const uri = pathToFileURL(resolve(file)).href;
const text = readFileSync(0, "utf8");

const child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
let nextId = 1;
const waiting = new Map();

function send(message) {
  const body = JSON.stringify({ jsonrpc: "2.0", ...message });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((answer) => waiting.set(id, answer));
}
const notify = (method, params) => send({ method, params });

// LSP messages: a `Content-Length` header, a blank line, then that many bytes of JSON.
let buffer = Buffer.alloc(0);
let published = null;
let settle = null;
child.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    onMessage(message);
  }
});

function onMessage(message) {
  if (message.id !== undefined && waiting.has(message.id)) {
    waiting.get(message.id)(message.result);
    waiting.delete(message.id);
  } else if (message.id !== undefined) {
    // A request from the server (its settings, say): answer it with nothing.
    send({ id: message.id, result: null });
  } else if (message.method === "textDocument/publishDiagnostics" && message.params.uri === uri) {
    // The server may publish more than once while it loads the schema: keep the last.
    published = message.params.diagnostics;
    clearTimeout(settle);
    settle = setTimeout(finish, 1500);
  }
}

async function finish() {
  clearTimeout(giveUp);
  for (const d of published) {
    const { line, character } = d.range.start;
    console.log(`${line + 1}:${character + 1} ${d.message}`);
  }
  await request("shutdown", null);
  notify("exit", null);
  process.exitCode = published.length > 0 ? 1 : 0;
}

const giveUp = setTimeout(() => {
  console.error("yaml-language-server published no diagnostics in 30 seconds");
  child.kill();
  process.exit(2);
}, 30000);

await request("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(process.cwd()).href,
  capabilities: { textDocument: { publishDiagnostics: {} } },
});
notify("initialized", {});
// No schema store: the file's own modeline names its schema.
notify("workspace/didChangeConfiguration", {
  settings: { yaml: { validate: true, schemaStore: { enable: false } } },
});
notify("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
