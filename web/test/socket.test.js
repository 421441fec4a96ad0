// The reconnecting socket client (src/socket.js) with a fake WebSocket and fake timers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LiveSocket, socketUrl } from "../src/socket.js";

class FakeWs {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeWs.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  say(msg) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

function env() {
  const timers = [];
  FakeWs.made = [];
  return {
    timers,
    WebSocket: FakeWs,
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    clearTimeout: () => {},
    setInterval: () => 0,
    clearInterval: () => {},
    location: { protocol: "https:", host: "go.example:8443" },
  };
}

test("the address follows the page's scheme and host", () => {
  assert.equal(socketUrl("api/lobby/ws", { protocol: "https:", host: "a.b" }), "wss://a.b/api/lobby/ws");
  assert.equal(socketUrl("api/games/x/ws", { protocol: "http:", host: "h:1" }), "ws://h:1/api/games/x/ws");
});

test("a dropped socket reopens after 0.5 s doubling to 8 s, and back to 0.5 s once open", () => {
  const e = env();
  const statuses = [];
  const s = new LiveSocket("api/lobby/ws", { onStatus: (x) => statuses.push(x) }, e);
  assert.equal(FakeWs.made[0].url, "wss://go.example:8443/api/lobby/ws");
  for (let i = 0; i < 6; i++) {
    FakeWs.made.at(-1).close();
    e.timers.shift().fn();
  }
  assert.deepEqual(
    statuses,
    Array(6).fill("closed"),
  );
  assert.equal(FakeWs.made.length, 7);
  FakeWs.made.at(-1).accept();
  FakeWs.made.at(-1).close();
  assert.deepEqual(e.timers.map((t) => t.ms), [500]);
  s.close();
});

test("the waits were 0.5, 1, 2, 4, 8, 8 s", () => {
  const e = env();
  const waits = [];
  new LiveSocket("p", {}, { ...e, setTimeout: (fn, ms) => { waits.push(ms); e.timers.push({ fn, ms }); } });
  for (let i = 0; i < 6; i++) {
    FakeWs.made.at(-1).close();
    e.timers.shift().fn();
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 8000]);
});

test("a game that does not exist (4404) is given up; close() stops reopening", () => {
  const e = env();
  const statuses = [];
  new LiveSocket("p", { onStatus: (x) => statuses.push(x) }, e);
  FakeWs.made[0].close(4404);
  assert.deepEqual(statuses, ["gone"]);
  assert.equal(e.timers.length, 0);
  const s = new LiveSocket("p", {}, e);
  s.close();
  assert.equal(e.timers.length, 0);
});

test("a board the caller may not see (4403) is given up too, said apart from one that does not exist", () => {
  const e = env();
  const statuses = [];
  new LiveSocket("p", { onStatus: (x) => statuses.push(x) }, e);
  FakeWs.made[FakeWs.made.length - 1].close(4403);
  assert.deepEqual(statuses, ["forbidden"]);
  assert.equal(e.timers.length, 0);
});

test("a request goes over the socket and settles on its ack or its error", async () => {
  const e = env();
  const got = [];
  const s = new LiveSocket("p", { onMessage: (m) => got.push(m) }, e);
  const ws = FakeWs.made[0];
  ws.accept();
  const ok = s.request({ type: "action", action: { type: "pass" } }, () => assert.fail("no HTTP while open"));
  const bad = s.request({ type: "action", action: { type: "resign" } }, () => assert.fail("no HTTP while open"));
  assert.deepEqual(ws.sent.map((m) => m.id), ["c1", "c2"]);
  assert.deepEqual(ws.sent[0].action, { type: "pass" });
  ws.say({ type: "delta", from: 1, to: 2 });
  ws.say({ type: "ack", id: "c1" });
  ws.say({ type: "error", id: "c2", error: { code: "not-your-turn", message: "no", status: 409 } });
  await ok;
  await assert.rejects(bad, (err) => err.status === 409 && err.code === "not-your-turn");
  // The delta reached the page; the ack and error did not.
  assert.deepEqual(got, [{ type: "delta", from: 1, to: 2 }]);
});

test("while not open a request goes by the fallback (HTTP); a drop settles those in flight", async () => {
  const e = env();
  const s = new LiveSocket("p", {}, e);
  assert.equal(await s.request({ type: "action" }, async () => "by http"), "by http");
  FakeWs.made[0].accept();
  const flying = s.request({ type: "action" }, () => assert.fail());
  FakeWs.made[0].close();
  await assert.rejects(flying, (err) => err.code === "network" && err.reason === "in-flight");
  assert.equal(s.sendRaw({ type: "ping" }), false);
});
