// The web protocol connection (docs/web-protocol.md): one WebSocket, JSON text frames,
// request ids echoed as "ref", automatic reconnect with back-off.

export const PROTOCOL_VERSION = 1;

/** A server refusal (an "error" message answering one of our requests). */
export class ServerError extends Error {
  constructor(message) {
    super(message.reason);
    this.code = message.code;
    this.reason = message.reason;
  }
}

export class Connection {
  /**
   * @param {string} url - the ws:// or wss:// endpoint
   * @param {(msg: object) => void} onMessage - every server message, in order
   * @param {(status: "connecting"|"open"|"closed") => void} onStatus
   */
  constructor(url, onMessage, onStatus) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject}
    this.retryDelay = 500;
    this.stopped = false;
  }

  open() {
    if (this.socket) return; // already open or opening
    this.stopped = false;
    this.onStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryDelay = 500;
      this.onStatus("open");
    });
    socket.addEventListener("message", (e) => this.received(e.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject } of this.pending.values()) reject(new ServerError({ code: "closed", reason: "Connection lost." }));
      this.pending.clear();
      this.onStatus("closed");
      if (!this.stopped) {
        setTimeout(() => this.open(), this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, 8000);
      }
    });
  }

  /** Close for good (after "bye"): no reconnect. */
  stop() {
    this.stopped = true;
    const socket = this.socket;
    if (!socket) return;
    this.socket = null; // the close event of this socket is ignored from now on
    socket.close();
    for (const { reject } of this.pending.values()) reject(new ServerError({ code: "closed", reason: "Logged out." }));
    this.pending.clear();
    this.onStatus("closed");
  }

  received(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      console.warn("gamehall: unreadable frame", text);
      return;
    }
    if (msg.ref !== undefined && this.pending.has(msg.ref)) {
      const { resolve, reject } = this.pending.get(msg.ref);
      this.pending.delete(msg.ref);
      if (msg.t === "error") reject(new ServerError(msg));
      else resolve(msg);
      if (msg.t === "error") return; // the caller reports it
    }
    this.onMessage(msg);
  }

  /** Send a message without waiting for its reply. */
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /** Send a message with a fresh id; resolves with the reply, rejects with a ServerError. */
  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...msg, id })) {
        reject(new ServerError({ code: "closed", reason: "Not connected." }));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }
}
