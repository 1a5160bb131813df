// The page's terminal: xterm.js draws what the server sends over the WebSocket and sends back what the player
// types or clicks, and the window's size as it changes. The server runs the same program as over SSH.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const term = new Terminal({ scrollback: 0, fontFamily: 'monospace', fontSize: 15, cursorBlink: false });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open($('terminal'));
  fit.fit();

  // What the socket opens: the lobby, a table to watch (/watch/CODE), or the TV (/tv).
  let ask = '';
  const path = location.pathname;
  if (path.startsWith('/watch/')) ask = 'watch=' + encodeURIComponent(path.slice('/watch/'.length));
  else if (path === '/tv') ask = 'tv=1';

  const encoder = new TextEncoder();
  // The largest message sent at once: a long paste goes in pieces, each well under the server's frame limit.
  const PIECE = 4096;
  let socket = null;

  function send(bytes) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    for (let at = 0; at < bytes.length; at += PIECE) socket.send(bytes.subarray(at, at + PIECE));
  }
  term.onData((text) => send(encoder.encode(text)));
  // Mouse reports in the old encodings come as binary strings, one byte a character.
  term.onBinary((text) => send(Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)));
  term.onResize(({ cols, rows }) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ cols, rows }));
  });
  window.addEventListener('resize', () => fit.fit());

  function connect() {
    $('again').hidden = true;
    $('state').textContent = '';
    term.reset();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const size = 'cols=' + term.cols + '&rows=' + term.rows;
    const ws = new WebSocket(scheme + '//' + location.host + '/ws?' + (ask ? ask + '&' : '') + size);
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (event) => {
      if (typeof event.data === 'string') term.write(event.data);
      else term.write(new Uint8Array(event.data));
    };
    ws.onopen = () => term.focus();
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      $('state').textContent = event.reason || 'the connection closed';
      $('again').hidden = false;
    };
    socket = ws;
  }

  // Who the server takes this browser for, and the buttons that change it.
  async function who() {
    try {
      const answer = await fetch('/link', { credentials: 'same-origin' });
      const me = await answer.json();
      $('who').textContent = me.linked ? 'playing as ' + me.name : 'a guest';
      $('link').hidden = me.linked || !!ask;
      $('forget').hidden = !me.linked;
      return me;
    } catch (e) {
      $('who').textContent = '';
      return { linked: false };
    }
  }

  let waiting = null;
  function stopWaiting() {
    if (waiting) clearInterval(waiting);
    waiting = null;
    $('linking').hidden = true;
  }

  $('link').addEventListener('click', async () => {
    const answer = await fetch('/link', { method: 'POST', credentials: 'same-origin' });
    const offer = await answer.json();
    if (!answer.ok) {
      $('state').textContent = offer.error || 'no code now: try again later';
      return;
    }
    $('command').textContent = offer.command;
    $('minutes').textContent = String(offer.minutes);
    $('linking').hidden = false;
    fit.fit();
    const until = Date.now() + offer.minutes * 60 * 1000;
    stopWaiting();
    $('linking').hidden = false;
    waiting = setInterval(async () => {
      const me = await who();
      if (me.linked) {
        stopWaiting();
        fit.fit();
        if (socket) socket.close(1000, 'linked');
        socket = null;
        connect();
      } else if (Date.now() > until) {
        stopWaiting();
        $('state').textContent = 'the code ran out: ask for another';
      }
    }, 2000);
  });
  $('cancel').addEventListener('click', () => { stopWaiting(); fit.fit(); });
  $('forget').addEventListener('click', async () => {
    await fetch('/link', { method: 'DELETE', credentials: 'same-origin' });
    await who();
    if (socket) socket.close(1000, 'forgotten');
    socket = null;
    connect();
  });
  $('again').addEventListener('click', connect);

  who().then(connect);
})();
