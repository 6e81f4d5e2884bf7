// One autocannon run in its own process (measure.ts's cannon forks it), so that the load generator
// never shares the server's event loop. (Not a worker thread: autocannon run inside one acts
// as one of its own workers and hands back raw histograms.) Receives the autocannon options
// over IPC, sends back the figures the bench prints.
import autocannon from 'autocannon'

process.once('message', async (options) => {
  const result = await autocannon(options)
  process.send?.({
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  })
  process.disconnect()
})
