package gatehouse

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	jose "gopkg.in/square/go-jose.v2"
	"gopkg.in/square/go-jose.v2/jwt"
)

// The verifier's rules that a live server cannot show on demand: the refetch bound, the
// leeway, and tokens Gatehouse never issues. test/sdks/go-verify.test.ts runs these with
// `go test`; it checks real tokens against a real server.

type keySet struct {
	keys    []jose.JSONWebKey
	fetches int32
}

func (s *keySet) serve(w http.ResponseWriter, _ *http.Request) {
	atomic.AddInt32(&s.fetches, 1)
	_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: s.keys})
}

type signingKey struct {
	private *ecdsa.PrivateKey
	kid     string
}

func newKey(t *testing.T, kid string) signingKey {
	private, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{private, kid}
}

func (k signingKey) public() jose.JSONWebKey {
	return jose.JSONWebKey{Key: &k.private.PublicKey, KeyID: k.kid, Algorithm: "ES256", Use: "sig"}
}

const issuer = "https://auth.example.com/v1/auth/lp_test"

func (k signingKey) sign(t *testing.T, claims jwt.Claims) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k.private},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", k.kid))
	if err != nil {
		t.Fatal(err)
	}
	token, err := jwt.Signed(signer).Claims(claims).Claims(map[string]interface{}{"project_id": "proj_test", "sid": "sess_1", "amr": []string{"pwd"}}).CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func claimsAt(now time.Time, lifetime time.Duration) jwt.Claims {
	return jwt.Claims{
		Issuer:   issuer,
		Subject:  "usr_1",
		Audience: jwt.Audience{"proj_test"},
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(lifetime)),
		ID:       "jti",
	}
}

func setup(t *testing.T, keys ...signingKey) (*keySet, *Verifier, *time.Time) {
	set := &keySet{}
	for _, k := range keys {
		set.keys = append(set.keys, k.public())
	}
	server := httptest.NewServer(http.HandlerFunc(set.serve))
	t.Cleanup(server.Close)
	verifier, err := NewVerifier(VerifierConfig{JWKSURL: server.URL, Issuer: issuer, Audience: "proj_test", RefetchInterval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	verifier.now = func() time.Time { return now }
	return set, verifier, &now
}

func TestUnknownKeyRefetchesAtMostOncePerInterval(t *testing.T) {
	old, rotated := newKey(t, "k1"), newKey(t, "k2")
	set, verifier, now := setup(t, old)
	ctx := context.Background()
	if _, err := verifier.Verify(ctx, old.sign(t, claimsAt(*now, time.Hour))); err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Verify(ctx, old.sign(t, claimsAt(*now, time.Hour))); err != nil || set.fetches != 1 {
		t.Fatalf("a known key fetched again: %v, %d fetches", err, set.fetches)
	}

	// Rotated: the first token with the new key fetches the set again and is accepted.
	set.keys = append(set.keys, rotated.public())
	*now = now.Add(2 * time.Minute)
	if claims, err := verifier.Verify(ctx, rotated.sign(t, claimsAt(*now, time.Hour))); err != nil || claims.KeyID != "k2" || set.fetches != 2 {
		t.Fatalf("rotated key: %v, %+v, %d fetches", err, claims, set.fetches)
	}

	// Made-up key ids, just after that fetch: refused, and no fetch until the interval has passed.
	stranger := newKey(t, "k3")
	for i := 0; i < 5; i++ {
		if _, err := verifier.Verify(ctx, stranger.sign(t, claimsAt(*now, time.Hour))); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("unknown key: %v", err)
		}
	}
	if set.fetches != 2 {
		t.Fatalf("%d fetches for unknown keys within the interval, want none more", set.fetches)
	}
	*now = now.Add(time.Minute)
	_, _ = verifier.Verify(ctx, stranger.sign(t, claimsAt(*now, time.Hour)))
	if set.fetches != 3 {
		t.Fatalf("%d fetches after the interval, want 3", set.fetches)
	}
}

func TestClaimsAndAlgorithm(t *testing.T) {
	key := newKey(t, "k1")
	_, verifier, now := setup(t, key)
	ctx := context.Background()
	expiredBy := func(d time.Duration) jwt.Claims { return claimsAt(now.Add(-time.Hour-d), time.Hour) }
	if _, err := verifier.Verify(ctx, key.sign(t, expiredBy(10*time.Second))); err != nil {
		t.Fatalf("within the 30 s leeway: %v", err)
	}
	if _, err := verifier.Verify(ctx, key.sign(t, expiredBy(time.Minute))); !errors.Is(err, ErrTokenExpired) {
		t.Fatalf("expired a minute ago: %v", err)
	}
	noExpiry := claimsAt(*now, time.Hour)
	noExpiry.Expiry = nil
	if _, err := verifier.Verify(ctx, key.sign(t, noExpiry)); !errors.Is(err, ErrTokenMalformed) {
		t.Fatalf("no exp: %v", err)
	}
	otherAudience := claimsAt(*now, time.Hour)
	otherAudience.Audience = jwt.Audience{"proj_other"}
	if _, err := verifier.Verify(ctx, key.sign(t, otherAudience)); !errors.Is(err, ErrWrongAudience) {
		t.Fatalf("other audience: %v", err)
	}
	otherIssuer := claimsAt(*now, time.Hour)
	otherIssuer.Issuer = "https://evil.example.com"
	if _, err := verifier.Verify(ctx, key.sign(t, otherIssuer)); !errors.Is(err, ErrWrongIssuer) {
		t.Fatalf("other issuer: %v", err)
	}

	// HS256 with the public key's bytes as the secret, the classic confusion: refused before any key is used.
	hmac, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte("secret")},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	forged, err := jwt.Signed(hmac).Claims(claimsAt(*now, time.Hour)).CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Verify(ctx, forged); !errors.Is(err, ErrTokenMalformed) {
		t.Fatalf("HS256: %v", err)
	}
	if _, err := verifier.Verify(ctx, "not.a.token"); !errors.Is(err, ErrTokenMalformed) {
		t.Fatalf("garbage: %v", err)
	}
}
