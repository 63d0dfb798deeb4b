"""CPU time os-ken spends on one packet-in outside its I/O loop: decode, learning_switch.py, encode.

Feeds the same buffered packet-in (to a learned destination, so the answer is a flow-mod) through
os-ken's own parser, the app's handler and the flow-mod's serialisation, in one process with no
socket, eventlet hub or event queue, and prints the CPU time per packet-in for OpenFlow 1.0 and 1.3.
Against the rate measured over TCP (bench/measure.sh), the rest is os-ken's I/O and event path.
Run with the virtualenv's Python: $(dirname "$(bench/osken/setup.sh)")/python bench/osken/handler_cost.py
"""
import importlib.util
import os
import struct
import sys
import time

from os_ken.ofproto import ofproto_parser, ofproto_v1_0, ofproto_v1_0_parser, ofproto_v1_3, ofproto_v1_3_parser

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
DESTINATION, SOURCE = bytes.fromhex('800000000001'), bytes.fromhex('020000000001')


class RecordingDatapath:
    """What the handler sees of a switch: protocol modules and send_msg, which serialises like os-ken."""

    def __init__(self, ofproto, parser):
        self.ofproto, self.ofproto_parser, self.id, self.sent = ofproto, parser, 1, 0

    def send_msg(self, msg):
        msg.set_xid(1)
        msg.serialize()
        self.sent += 1


def packet_in(dp, frame, port, buffer_id):
    ofp, parser = dp.ofproto, dp.ofproto_parser
    if ofp.OFP_VERSION == ofproto_v1_0.OFP_VERSION:
        body = struct.pack('!IHHBx', buffer_id, len(frame), port, ofp.OFPR_NO_MATCH) + frame
    else:
        match = bytearray()
        parser.OFPMatch(in_port=port).serialize(match, 0)
        body = struct.pack('!IHBBQ', buffer_id, len(frame), ofp.OFPR_NO_MATCH, 0, 0) + bytes(match) + bytes(2) + frame
    raw = struct.pack('!BBHI', ofp.OFP_VERSION, ofp.OFPT_PACKET_IN, 8 + len(body), 7) + body
    return ofproto_parser.msg(dp, *ofproto_parser.header(raw), raw)


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'learning_switch.py')
    spec = importlib.util.spec_from_file_location('learning_switch', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    app = module.LearningSwitch()

    class Event:
        def __init__(self, msg):
            self.msg = msg

    for ofp, parser in ((ofproto_v1_0, ofproto_v1_0_parser), (ofproto_v1_3, ofproto_v1_3_parser)):
        dp = RecordingDatapath(ofp, parser)
        arp = b'\xff' * 6 + DESTINATION + b'\x08\x06' + bytes(50)   # teaches the destination's port (2)
        app.on_packet_in(Event(packet_in(dp, arp, 2, ofp.OFP_NO_BUFFER)))
        raw = packet_in(dp, DESTINATION + SOURCE + b'\x08\x00' + bytes(50), 1, 5).buf

        def one():
            app.on_packet_in(Event(ofproto_parser.msg(dp, *ofproto_parser.header(raw), raw)))

        for _ in range(COUNT // 10):
            one()
        sent, started = dp.sent, time.process_time()
        for _ in range(COUNT):
            one()
        seconds = time.process_time() - started
        if dp.sent - sent != COUNT:
            sys.exit(f'OpenFlow {ofp.OFP_VERSION}: {dp.sent - sent} messages sent for {COUNT} packet-ins, not one each')
        print(f'OpenFlow 0x{ofp.OFP_VERSION:02x}: {1e6 * seconds / COUNT:.1f} us CPU per packet-in '
              f'(decode, handler, encode), {COUNT / seconds:,.0f} per CPU-second')


if __name__ == '__main__':
    main()
