"""The smallest OpenFlow 1.5 controller that records what Open vSwitch sends a controller.

python3 capture.py PORT PREFIX: waits for one switch on 127.0.0.1:PORT, says HELLO (1.5 only) and
FEATURES_REQUEST, asks for flow, aggregate and port statistics, answers echoes, and writes each
reply, as the bytes that came on the wire, to PREFIX-flow-stats-reply.bin and so on; then waits up
to 15 s for a FLOW_REMOVED and writes it to PREFIX-flow-removed.bin. See README.md.
"""
import socket
import struct
import sys
import time

V15 = 6
port, prefix = int(sys.argv[1]), sys.argv[2]
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(('127.0.0.1', port))
server.listen(1)
server.settimeout(30)
conn, _ = server.accept()
conn.settimeout(15)
pending = b''


def send(msg_type, body=b'', xid=0):
    conn.sendall(struct.pack('!BBHI', V15, msg_type, 8 + len(body), xid) + body)


def receive():
    global pending
    while True:
        if len(pending) >= 8:
            length = struct.unpack('!H', pending[2:4])[0]
            if len(pending) >= length:
                message, pending = pending[:length], pending[length:]
                return message
        data = conn.recv(65536)
        if not data:
            raise EOFError('the switch closed the connection')
        pending += data


MATCH_ALL = struct.pack('!HH', 1, 4) + b'\0' * 4
FLOW_REQUEST = struct.pack('!B3xII4xQQ', 0xff, 0xffffffff, 0xffffffff, 0, 0) + MATCH_ALL
send(0, struct.pack('!HHI', 1, 8, 1 << V15), 1)                       # HELLO, version bitmap: 1.5
send(5, b'', 2)                                                        # FEATURES_REQUEST
wanted = {100: 'flow-stats-reply', 101: 'aggregate-reply', 102: 'port-stats-reply'}
send(18, struct.pack('!HH4x', 1, 0) + FLOW_REQUEST, 100)               # multipart 1: flow (FLOW_DESC)
send(18, struct.pack('!HH4x', 2, 0) + FLOW_REQUEST, 101)               # multipart 2: aggregate
send(18, struct.pack('!HH4x', 4, 0) + struct.pack('!I4x', 0xffffffff), 102)  # multipart 4: port, all
deadline = time.time() + 15
while time.time() < deadline:
    message = receive()
    _, msg_type, _, xid = struct.unpack('!BBHI', message[:8])
    if msg_type == 2:                                                  # ECHO_REQUEST
        conn.sendall(message[:1] + bytes([3]) + message[2:])
    elif msg_type == 19 and xid in wanted:
        with open(f'{prefix}-{wanted.pop(xid)}.bin', 'wb') as f:
            f.write(message)
    elif msg_type == 11:                                               # FLOW_REMOVED
        with open(f'{prefix}-flow-removed.bin', 'wb') as f:
            f.write(message)
        break
