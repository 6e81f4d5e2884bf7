// The load generator of api.bench.ts, in its own thread so that it does not share the
// server's event loop: N keep-alive connections, each sending the next request as soon as
// the previous answer ended, for a fixed time. Latency is measured per request.
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

/** @type {{ port: number, path: string, authorization: string, seconds: number, connections: number }} */
const job = workerData

const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections })
/** @type {number[]} */
const latencies = []
let errors = 0
const until = performance.now() + job.seconds * 1000

const one = () =>
  new Promise((resolve) => {
    const t0 = performance.now()
    const req = http.request(
      {
        host: '127.0.0.1',
        port: job.port,
        path: job.path,
        agent,
        headers: { authorization: job.authorization },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0)
          else errors++
          resolve()
        })
      },
    )
    req.on('error', () => {
      errors++
      resolve()
    })
    req.end()
  })

const started = performance.now()
await Promise.all(
  Array.from({ length: job.connections }, async () => {
    while (performance.now() < until) await one()
  }),
)
const elapsed = (performance.now() - started) / 1000
agent.destroy()
latencies.sort((a, b) => a - b)
const q = (/** @type {number} */ p) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN
parentPort?.postMessage({
  requests: latencies.length,
  errors,
  rps: latencies.length / elapsed,
  p50: q(0.5),
  p99: q(0.99),
  max: latencies[latencies.length - 1] ?? NaN,
})
