// The benchmark runs the service the way `npm start` does: the environment settings and node
// flags of package.json's "start" script (`VAR=value … exec node [--flag …] dist/src/main.js`)
// are read from there, so the figures describe what operators run.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface StartCommand {
  env: Record<string, string>;
  nodeArgs: string[];
  script: string;
}

export function startCommand(root: string): StartCommand {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=");
    env[name] = value.join("=");
  }
  // `exec` makes node the process npm signals, rather than a shell that would leave it running.
  if (words[0] === "exec") words.shift();
  if (words.shift() !== "node" || words.length === 0) {
    throw new Error(`package.json "start" is not "[VAR=value …] [exec] node [flags] script": ${pkg.scripts.start}`);
  }
  const script = words.pop()!;
  return { env, nodeArgs: words, script };
}

/**
 * The same flags for running src/ through tsx (`--tsx`, where nothing is built): a preload of
 * the build (`--require ./dist/src/x.js`) becomes the source file behind tsx's CommonJS hook.
 */
export function sourceNodeArgs(nodeArgs: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < nodeArgs.length; i++) {
    const built = nodeArgs[i] === "--require" ? /^\.\/dist\/(src\/.+)\.js$/.exec(nodeArgs[i + 1] ?? "") : null;
    if (built) {
      out.push("--require", "tsx/cjs", "--require", `./${built[1]}.ts`);
      i++;
    } else out.push(nodeArgs[i]);
  }
  return out;
}
