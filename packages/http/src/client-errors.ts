// Requests Node's parser refuses (not HTTP, headers too large) never reach a handler, and Node
// would answer them with a bare status line. They get problem JSON like every other error.
import { STATUS_CODES, type Server } from 'node:http'
import { problemBody } from './problem.js'

const DETAILS: Record<number, string> = {
  400: 'The request is not valid HTTP.',
  408: 'The request did not arrive in time.',
  431: 'The request headers are too large.',
}

export function answerClientErrorsWithProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // Nobody is left to read an answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const body = JSON.stringify(problemBody(status, DETAILS[status]!, pathOf(error.rawPacket)))
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    )
  })
}

/** The path of the request line, when there is a readable one; `/` otherwise. */
function pathOf(rawPacket: Buffer | undefined): string {
  const target = /^[A-Z]+ (\/[^\s?#]*)/.exec(rawPacket?.toString('latin1') ?? '')?.[1]
  return target && /^[\x21-\x7e]+$/.test(target) ? target : '/'
}
