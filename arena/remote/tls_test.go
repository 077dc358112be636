package remote_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/remote"
)

// selfSigned writes a CA-less self-signed certificate for 127.0.0.1 and
// its key to dir, and returns the TLS pair and the PEM file paths.
func selfSigned(t *testing.T, dir string) (tls.Certificate, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "arena test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certPath, keyPath
}

// Over TLS, a client that trusts the server's certificate connects; one
// that does not is refused.
func TestServerTLS(t *testing.T) {
	dir := t.TempDir()
	pair, certPath, _ := selfSigned(t, dir)
	ns, err := remote.StartServer(remote.ServerOptions{TLS: &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	opts, err := remote.ConnectOptions(remote.Client{CA: certPath})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(ns.ClientURL(), opts...)
	if err != nil {
		t.Fatalf("with the CA: %v", err)
	}
	if !nc.TLSRequired() {
		t.Error("the connection is not TLS")
	}
	nc.Close()
	if nc, err := nats.Connect(ns.ClientURL()); err == nil {
		nc.Close()
		t.Error("a client that does not trust the certificate connected")
	}
	if _, err := remote.ConnectOptions(remote.Client{Cert: certPath}); err == nil {
		t.Error("a client certificate without its key was accepted")
	}
}
