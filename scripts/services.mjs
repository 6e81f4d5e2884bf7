// Makes sure the services the test suites need are there: PostgreSQL (127.0.0.1:5432), nginx and
// Debian's Chromium. As root it installs or starts them; otherwise it says what to do.
import { execSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import net from 'node:net'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres'

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
let aptUpdated = false

function sh(command) {
  execSync(command, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
}

function aptInstall(packages) {
  if (!aptUpdated) {
    sh('apt-get update -qq')
    aptUpdated = true
  }
  sh(`apt-get install -y -qq --no-install-recommends ${packages}`)
}

function portOpen(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 })
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('timeout', () => (socket.destroy(), resolve(false)))
    socket.once('error', () => resolve(false))
  })
}

async function canQuery(url) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** Returns the admin URL of a reachable PostgreSQL server, or throws with what to do. */
export async function ensurePostgres() {
  const url = new URL(TEST_DATABASE_URL)
  const host = url.hostname
  const port = Number(url.port || 5432)
  if (!(await portOpen(host, port))) {
    if (!isRoot) {
      throw new Error(
        `PostgreSQL is not running on ${host}:${port}. Install and start it ` +
          '(sudo apt-get install postgresql && sudo pg_ctlcluster 15 main start), or set TEST_DATABASE_URL.',
      )
    }
    let fresh = false
    if (!existsSync('/etc/postgresql') || readdirSync('/etc/postgresql').length === 0) {
      console.log('Installing PostgreSQL (apt-get install postgresql)…')
      aptInstall('postgresql')
      fresh = true
    }
    for (const version of readdirSync('/etc/postgresql')) {
      console.log(`Starting PostgreSQL ${version}…`)
      try {
        sh(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`)
      } catch {
        // Already running, or started by the install; the port check below decides.
      }
    }
    for (let i = 0; i < 30 && !(await portOpen(host, port)); i++) {
      await new Promise((r) => setTimeout(r, 500))
    }
    if (fresh) {
      // A fresh Debian cluster asks for a password on TCP: give the postgres role the
      // password of TEST_DATABASE_URL.
      const password = decodeURIComponent(url.password || 'postgres').replaceAll("'", "''")
      sh(`su postgres -c "psql -q -c \\"ALTER USER postgres PASSWORD '${password}'\\""`)
    }
  }
  const ok = await canQuery(TEST_DATABASE_URL)
  if (ok !== true) {
    throw new Error(`PostgreSQL at ${host}:${port} refused the test connection: ${ok}`)
  }
  return TEST_DATABASE_URL
}

/** Returns the path of Debian's Chromium, installing it as root when missing. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM
  if (!isRoot) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}. Install it: sudo apt-get install chromium (or set CHROMIUM_PATH).`,
    )
  }
  console.log('Installing Chromium (apt-get install chromium)…')
  aptInstall('chromium fonts-liberation')
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium but ${CHROMIUM} is missing`)
  return CHROMIUM
}

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'

/** Returns the path of Debian's nginx (the multi-process test's balancer), installing it as root. */
export function ensureNginx() {
  if (existsSync(NGINX)) return NGINX
  if (!isRoot) {
    throw new Error(
      `nginx is missing at ${NGINX}. Install it: sudo apt-get install nginx-light (or set NGINX_PATH).`,
    )
  }
  console.log('Installing nginx (apt-get install nginx-light)…')
  aptInstall('nginx-light')
  if (!existsSync(NGINX)) throw new Error(`apt-get installed nginx but ${NGINX} is missing`)
  return NGINX
}
