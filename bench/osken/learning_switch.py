"""A learning switch for os-ken, the reference controller of bench/osken/run.sh.

Does what Heliograph's learning switch does, so the two are measured on the same work: per
datapath it learns source MAC -> ingress port; a packet to a known unicast destination gets a
flow (in_port, eth_src, eth_dst exact; idle timeout 5 s; priority 1) that carries the packet-in's
buffer id, plus a packet-out of the frame when the switch did not buffer it; any other packet is
flooded with a packet-out. OpenFlow 1.0 and 1.3. Run: osken-manager bench/osken/learning_switch.py
"""
from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

IDLE_TIMEOUT, PRIORITY = 5, 1


class LearningSwitch(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ports_by_datapath = {}   # datapath id -> {MAC (6 bytes) -> port}

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def on_features(self, ev):
        dp = ev.msg.datapath
        self.ports_by_datapath[dp.id] = {}   # a (re)connected switch starts with an empty table
        if dp.ofproto.OFP_VERSION >= ofproto_v1_3.OFP_VERSION:   # 1.3 drops misses unless told
            to_controller = dp.ofproto_parser.OFPActionOutput(dp.ofproto.OFPP_CONTROLLER,
                                                              dp.ofproto.OFPCML_NO_BUFFER)
            self.send_flow(dp, dp.ofproto_parser.OFPMatch(), [to_controller], 0, 0, dp.ofproto.OFP_NO_BUFFER)

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def on_packet_in(self, ev):
        msg, dp = ev.msg, ev.msg.datapath
        ofp, parser, frame = dp.ofproto, dp.ofproto_parser, msg.data
        if len(frame) < 14:
            return
        v10 = ofp.OFP_VERSION == ofproto_v1_0.OFP_VERSION
        in_port = msg.in_port if v10 else msg.match['in_port']
        dst, src = frame[0:6], frame[6:12]
        ports = self.ports_by_datapath.setdefault(dp.id, {})
        if not src[0] & 1:   # learn unicast sources only
            ports[src] = in_port
        out = None if dst[0] & 1 else ports.get(dst)
        if out == in_port:
            return   # the destination is where the packet came from: it already has it
        if out is not None:
            fields = {'in_port': in_port}
            fields.update({'dl_src': src, 'dl_dst': dst} if v10 else
                          {'eth_src': src.hex(':'), 'eth_dst': dst.hex(':')})
            self.send_flow(dp, parser.OFPMatch(**fields), [parser.OFPActionOutput(out)], IDLE_TIMEOUT, PRIORITY,
                           msg.buffer_id)
            if msg.buffer_id != ofp.OFP_NO_BUFFER:
                return   # the switch applies the flow to the buffered packet
        port = ofp.OFPP_FLOOD if out is None else out
        unbuffered = msg.buffer_id == ofp.OFP_NO_BUFFER
        dp.send_msg(parser.OFPPacketOut(datapath=dp, buffer_id=msg.buffer_id, in_port=in_port,
                                        actions=[parser.OFPActionOutput(port)], data=frame if unbuffered else None))

    @staticmethod
    def send_flow(dp, match, actions, idle_timeout, priority, buffer_id):
        ofp, parser = dp.ofproto, dp.ofproto_parser
        if ofp.OFP_VERSION == ofproto_v1_0.OFP_VERSION:
            body = {'actions': actions}
        else:
            body = {'instructions': [parser.OFPInstructionActions(ofp.OFPIT_APPLY_ACTIONS, actions)]}
        dp.send_msg(parser.OFPFlowMod(datapath=dp, match=match, idle_timeout=idle_timeout, priority=priority,
                                      buffer_id=buffer_id, **body))
