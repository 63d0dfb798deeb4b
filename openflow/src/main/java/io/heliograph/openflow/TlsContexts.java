package io.heliograph.openflow;

import javax.net.ssl.SSLException;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/** Builds the TLS listener's context from PEM files: the controller's chain and key, and optionally the switches' trust anchors. */
final class TlsContexts {

    private TlsContexts() {
    }

    static SslContext server(OpenFlowSettings s) throws SSLException {
        try {
            SslContextBuilder b = SslContextBuilder.forServer(s.tlsCertificate().toFile(), s.tlsKey().toFile())
                    .sslProvider(SslProvider.JDK);
            if (s.tlsTrust() != null) {
                // A configured trust store means switches must show a certificate that chains to it.
                b.trustManager(s.tlsTrust().toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new SSLException("cannot load TLS material (certificate " + s.tlsCertificate() + ", key " + s.tlsKey()
                    + ", trust " + s.tlsTrust() + "): " + e.getMessage(), e);
        }
    }
}
