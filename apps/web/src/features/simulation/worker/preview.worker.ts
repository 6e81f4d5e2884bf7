// The engine off the main thread: the page posts numbered inputs, the worker answers each in two
// steps (worker/preview-protocol.ts). A newer input replaces this worker while it is busy.
import { answerPreview, type PreviewReply, type PreviewRequest } from './preview-protocol.ts'

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  answerPreview(event.data, (reply: PreviewReply) => self.postMessage(reply))
}
