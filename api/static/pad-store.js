// The phone's store of hands not yet sent (IndexedDB "scorepad", object store
// "hands"), shared by the page (pad-offline.js) and the service worker (sw.js,
// a module worker): an ES module both import.
// An entry: {seq (its place in the queue), game, url (the form's address),
// fields ([name, value] pairs, the idempotency key among them), created,
// refused (the server's words, once refused), newToken (a fresh CSRF token used)}.

/** @typedef {{seq?: number, game: string, url: string, fields: [string, string][],
 *   created: string, refused?: string, newToken?: boolean}} Entry */

/** @type {Promise<IDBDatabase> | null} */
let opened = null;

function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open("scorepad", 1);
    request.onupgradeneeded = () =>
      request.result.createObjectStore("hands", { keyPath: "seq", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

/** Runs `work` on the store in one transaction: its request's result once it commits.
 * @template T
 * @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>} */
async function inStore(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction("hands", mode);
    const request = work(tx.objectStore("hands"));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
  });
}

/** @returns {Promise<Entry[]>} */
export const all = () => inStore("readonly", (store) => store.getAll());
/** @param {Entry} item */
export const put = (item) => inStore("readwrite", (store) => store.put(item));
/** @param {number} seq */
export const drop = (seq) => inStore("readwrite", (store) => store.delete(seq));
