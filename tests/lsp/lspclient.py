"""A minimal LSP client over a subprocess's stdin/stdout (tests and bench)."""
import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, argv, cwd=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd)
        self.next_id = 0
        self.buffer = b""
        self.notifications = []

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_async(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def read(self, timeout=30.0):
        """The next message, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            header_end = self.buffer.find(b"\r\n\r\n")
            if header_end >= 0:
                headers = self.buffer[:header_end].decode()
                length = None
                for line in headers.split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                assert length is not None, "no Content-Length in %r" % headers
                start = header_end + 4
                if len(self.buffer) - start >= length:
                    body = self.buffer[start:start + length]
                    self.buffer = self.buffer[start + length:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk

    def response(self, id, timeout=30.0):
        """The response to request `id`; notifications read meanwhile are kept."""
        while True:
            message = self.read(timeout)
            if message is None:
                raise AssertionError("no response to request %d" % id)
            if message.get("id") == id and "method" not in message:
                return message
            self.notifications.append(message)

    def request(self, method, params, timeout=30.0):
        return self.response(self.request_async(method, params), timeout)

    def notification(self, method, timeout=30.0, where=lambda params: True):
        """The first (kept or new) notification of `method` whose params satisfy `where`."""
        for i, message in enumerate(self.notifications):
            if message.get("method") == method and where(message.get("params")):
                return self.notifications.pop(i)["params"]
        while True:
            message = self.read(timeout)
            if message is None:
                raise AssertionError("no %s notification" % method)
            if message.get("method") == method and where(message.get("params")):
                return message["params"]
            self.notifications.append(message)

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self.proc.wait(timeout=30)
