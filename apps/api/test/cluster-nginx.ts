// deploy/nginx.conf as shipped, on a test cluster's ports (cluster.ts): the listen ports
// (127.0.0.1:8080 and :8081) and the upstream servers 127.0.0.1:3000/3010 (API) and
// :4000/:4010 (identity provider) replaced, the second of each dropped when one API process
// runs; nothing else changes (its pid file, logs and temporary files go to the prefix directory
// nginx is started with). Any shipped port left over is an error, so that the file and the
// tests cannot drift apart silently.
import { readFileSync } from 'node:fs'

const shippedConf = new URL('../../../deploy/nginx.conf', import.meta.url)

export function nginxConfig({
  lb,
  lbIdp,
  apiPorts,
}: {
  lb: number
  lbIdp: number
  apiPorts: number[]
}): string {
  let conf = readFileSync(shippedConf, 'utf8')
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${lb};`)
    .replace('listen 127.0.0.1:8081;', `listen 127.0.0.1:${lbIdp};`)
  const upstream = (from: number, i: number, offset: number) => {
    const port = apiPorts[i]
    conf = port
      ? conf.replace(`server 127.0.0.1:${from} `, `server 127.0.0.1:${port + offset} `)
      : conf.replace(new RegExp(`\\n\\s*server 127\\.0\\.0\\.1:${from}[^\\n]*`), '')
  }
  upstream(3000, 0, 0)
  upstream(3010, 1, 0)
  upstream(4000, 0, 1)
  upstream(4010, 1, 1)
  for (const shipped of ['3000', '3010', '4000', '4010', '8080', '8081']) {
    if (conf.includes(`127.0.0.1:${shipped} `) || conf.includes(`127.0.0.1:${shipped};`)) {
      throw new Error(`deploy/nginx.conf: port ${shipped} was not replaced`)
    }
  }
  return conf
}
