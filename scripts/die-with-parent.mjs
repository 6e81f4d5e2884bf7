// Preloaded (`node --import`) into a process role that scripts/roles.mjs starts with an IPC
// channel: when the channel closes — the launcher exited or was killed, even by SIGKILL, which
// it cannot forward — the role gets SIGTERM and stops as it does under a supervisor (its handler
// closes the server; before the handler exists, SIGTERM ends the process). Without a channel
// (node started directly, as deploy/systemd does) it does nothing.
if (process.channel) {
  // The channel alone must not keep the role alive, nor count as work.
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}
