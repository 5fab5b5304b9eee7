import type { Tokens, TokenStore } from "./session.js";

// The few IndexedDB shapes the store uses, so this file type-checks without the DOM's types.
interface IdbRequest<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null;
}
interface IdbObjectStore {
  get(key: string): IdbRequest<Tokens | undefined>;
  put(value: Tokens, key: string): IdbRequest<unknown>;
  delete(key: string): IdbRequest<unknown>;
}
interface IdbTransaction {
  objectStore(name: string): IdbObjectStore;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  error: unknown;
}
interface IdbDatabase {
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: "readonly" | "readwrite"): IdbTransaction;
}
export interface IdbFactory {
  open(name: string, version: number): IdbOpenRequest;
}

const STORE = "tokens";

/**
 * Tokens in IndexedDB, shared by every tab of the origin. Unlike localStorage, whose copy in
 * each tab's renderer learns of another tab's write a moment later, an IndexedDB transaction
 * sees every write committed before it began: so the tab that takes the refresh lock after
 * another always reads the tokens that one stored, and never presents the spent refresh token.
 */
export function indexedDbStore(options: { database?: string; key?: string; indexedDB?: IdbFactory } = {}): TokenStore {
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IdbFactory }).indexedDB;
  if (!factory) throw new Error("no IndexedDB here: use memoryStore()");
  const key = options.key ?? "session";
  const opened = new Promise<IdbDatabase>((resolve, reject) => {
    const request = factory.open(options.database ?? "gatehouse", 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const run = async <T>(mode: "readonly" | "readwrite", work: (store: IdbObjectStore) => IdbRequest<T>): Promise<T> => {
    const transaction = (await opened).transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    return new Promise<T>((resolve, reject) => {
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  };
  return {
    load: () => run("readonly", (store) => store.get(key)),
    save: async (tokens) =>
      void (await run("readwrite", (store) => (tokens ? store.put(tokens, key) : store.delete(key)))),
  };
}
