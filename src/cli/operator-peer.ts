import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { userInfo } from "node:os";
import { join } from "node:path";

/**
 * Who is at the other end of the operator channel, as the kernel knows it. Node has no
 * SO_PEERCRED, so the command line proves its account with a file: the server names a new
 * file in its private directory (the socket's: the data directory or the 0700 fallback, which
 * only its own account and root can write in) and a nonce; the command line creates that file
 * holding the nonce; the file's owner is the account that created it, set by the kernel. The
 * name a command line might send is never read (issue 46: it was the audit log's actor).
 *
 * What is checked, and why: the file is opened without following a symbolic link, is a
 * regular file with one link (not a hard link to another account's file), has no group or
 * other permission (a file of another account that the caller could write and then move in
 * would need them), and holds the nonce, which was never written anywhere before this
 * connection asked for it. Root can create a file owned by anyone, as it can do anything.
 */
export interface ProofRequest {
  path: string;
  nonce: string;
}

export function proofRequest(dir: string): ProofRequest {
  return {
    path: join(dir, `.operator-proof-${randomBytes(16).toString("hex")}`),
    nonce: randomBytes(16).toString("hex"),
  };
}

/** The account that created the proof file, or why it proves nothing. The file is removed either way. */
export async function provenAccount(request: ProofRequest): Promise<{ account: string } | { problem: string }> {
  try {
    const file = await open(request.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
      (error: NodeJS.ErrnoException) => {
        throw new Error(
          error.code === "ENOENT" ? "no proof file was created" : `the proof file cannot be opened (${error.code})`,
        );
      },
    );
    try {
      const info = await file.stat();
      if (!info.isFile() || info.nlink !== 1 || (info.mode & 0o077) !== 0)
        return { problem: "the proof file is not a new private file (mode 0600, one link)" };
      const content = Buffer.alloc(request.nonce.length + 1);
      const { bytesRead } = await file.read(content, 0, content.length, 0);
      if (content.subarray(0, bytesRead).toString("utf8") !== request.nonce)
        return { problem: "the proof file does not hold the nonce" };
      return { account: await accountName(info.uid) };
    } finally {
      await file.close();
    }
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  } finally {
    await unlink(request.path).catch(() => {});
  }
}

/** The account name of `uid`: this process's own through the system, another's from /etc/passwd. */
export async function accountName(uid: number): Promise<string> {
  if (uid === process.getuid?.()) {
    try {
      return userInfo().username;
    } catch {
      // no passwd entry (a container's uid): the number below
    }
  }
  const passwd = await readFile("/etc/passwd", "utf8").catch(() => "");
  for (const line of passwd.split("\n")) {
    const [name, , id] = line.split(":");
    if (name && id !== undefined && Number(id) === uid && /^\d+$/.test(id)) return name;
  }
  return `uid:${uid}`;
}
