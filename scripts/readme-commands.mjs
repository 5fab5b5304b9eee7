// Prints commands exactly as README.md shows them, so that CI runs the README rather than its
// own copy of it (a copy drifts; a newcomer only ever reads the README).
//
//   node scripts/readme-commands.mjs setup        line 1 of the block under "## Two commands"
//   node scripts/readme-commands.mjs test         line 2 of that block
//   node scripts/readme-commands.mjs server       the block after <!-- walkthrough:server -->
//   node scripts/readme-commands.mjs walkthrough  every block after <!-- walkthrough -->, in order
//
// Trailing `# …` comments are dropped from the two commands; the walk-through is printed whole.
import { readFileSync } from "node:fs";

const part = process.argv[2];
const lines = readFileSync(new URL("../README.md", import.meta.url), "utf8").split("\n");

/** The body of the fenced block that opens on the first line at or after `from`. */
function blockAt(from, what) {
  let open = from;
  while (open < lines.length && lines[open].trim() === "") open++;
  if (!/^```(sh|bash)?\s*$/.test(lines[open] ?? "")) fail(`${what}: no \`\`\`sh block follows (line ${from + 1})`);
  const close = lines.findIndex((line, i) => i > open && line.startsWith("```"));
  if (close < 0) fail(`${what}: the block opened on line ${open + 1} never closes`);
  return lines.slice(open + 1, close);
}

function markers(text) {
  return lines.flatMap((line, i) => (line.trim() === text ? [i + 1] : []));
}

function fail(message) {
  console.error(`readme-commands: ${message}`);
  process.exit(1);
}

function twoCommands() {
  const heading = lines.findIndex((line) => line.trim() === "## Two commands");
  if (heading < 0) fail('README.md has no "## Two commands" heading');
  const next = lines.findIndex((line, i) => i > heading && line.startsWith("```"));
  const commands = blockAt(next, "## Two commands")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  if (commands.length !== 2) fail(`"## Two commands" holds ${commands.length} commands, not 2`);
  return commands;
}

switch (part) {
  case "setup":
    console.log(twoCommands()[0]);
    break;
  case "test":
    console.log(twoCommands()[1]);
    break;
  case "server": {
    const found = markers("<!-- walkthrough:server -->");
    if (found.length !== 1) fail(`expected one <!-- walkthrough:server --> marker, found ${found.length}`);
    const body = blockAt(found[0], "walkthrough:server").filter((line) => line.trim() !== "");
    if (body.length !== 1) fail(`the server block holds ${body.length} lines, not one command`);
    console.log(body[0]);
    break;
  }
  case "walkthrough": {
    const found = markers("<!-- walkthrough -->");
    if (found.length === 0) fail("README.md has no <!-- walkthrough --> block");
    console.log(found.map((line) => blockAt(line, "walkthrough").join("\n")).join("\n"));
    break;
  }
  default:
    fail("usage: node scripts/readme-commands.mjs setup|test|server|walkthrough");
}
