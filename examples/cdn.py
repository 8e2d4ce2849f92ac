#!/usr/bin/env python3
"""This repository's build (packages/service-auth/dist, after `npm run build`) served as the CDN
serves it, for the Python and PHP examples by hand, standard library only:

  python3 examples/cdn.py        # then SERVICE_AUTH_CDN=http://127.0.0.1:8090 for the example

PORT (default 8090; 0 takes a free one) changes the port. `python3 -m http.server` would not do:
the login pages load the files with `crossorigin="anonymous"`, so that the browser checks their
`integrity`, and a cross-origin file loaded that way must be served with CORS.
"""
import functools, os
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

DIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'packages', 'service-auth', 'dist')


class Cdn(SimpleHTTPRequestHandler):
    def end_headers(self):
        # As a CDN answers: any site may load the files (their integrity hash is what pins them).
        self.send_header('Access-Control-Allow-Origin', '*')
        super().end_headers()


if __name__ == '__main__':
    server = ThreadingHTTPServer(('127.0.0.1', int(os.environ.get('PORT', '8090'))), functools.partial(Cdn, directory=DIST))
    print(f'http://127.0.0.1:{server.server_port}', flush=True)
    server.serve_forever()
