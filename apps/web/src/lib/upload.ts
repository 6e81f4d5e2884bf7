// The one way to upload a file with progress: fetch cannot report an upload's progress, so
// XMLHttpRequest, with the session token and the API's errors as ApiError (code, message, status,
// details), as api() gives them.
import { ApiError, sessionToken } from './api-client.ts'

/** POSTs `form` (multipart) to the API's `path`, reporting the bytes sent (0–1); JSON back. */
export async function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<T> {
  const token = await sessionToken()
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', path)
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onerror = () =>
      reject(new ApiError('network', 'The upload failed: the server could not be reached.', 0))
    xhr.onload = () => {
      let body: { code?: string; message?: string; details?: unknown } = {}
      try {
        body = JSON.parse(xhr.responseText) as typeof body
      } catch {
        // not JSON: keep the status
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T)
      else
        reject(
          new ApiError(
            body.code ?? 'http-error',
            body.message ?? `The server answered ${xhr.status}.`,
            xhr.status,
            body.details,
          ),
        )
    }
    xhr.send(form)
  })
}
