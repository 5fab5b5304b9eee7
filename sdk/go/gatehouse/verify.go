package gatehouse

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	jose "gopkg.in/square/go-jose.v2"
	"gopkg.in/square/go-jose.v2/jwt"
)

// SigningAlgorithm is the one algorithm Gatehouse signs access tokens with (ES256: ECDSA on
// P-256 with SHA-256); a token naming any other, "none" included, is refused before any key
// is looked up.
const SigningAlgorithm = "ES256"

// Defaults of VerifierConfig.
const (
	DefaultLeeway          = 30 * time.Second
	DefaultFetchTimeout    = 10 * time.Second
	DefaultRefetchInterval = 5 * time.Second
)

// Why Verifier.Verify refused a token; test with errors.Is.
var (
	ErrTokenMalformed    = errors.New("not a compact ES256 JWT")
	ErrUnknownKey        = errors.New("signed with a key the project's key set does not hold")
	ErrBadSignature      = errors.New("signature does not match")
	ErrTokenExpired      = errors.New("expired")
	ErrTokenNotYetValid  = errors.New("not valid yet")
	ErrWrongIssuer       = errors.New("issued by another issuer")
	ErrWrongAudience     = errors.New("meant for another audience")
	ErrKeySetUnavailable = errors.New("the key set could not be fetched")
)

// VerifierConfig says whose tokens a Verifier accepts. JWKSURL and Issuer are required;
// ProjectVerifierConfig fills them for a project.
type VerifierConfig struct {
	// JWKSURL: the project's key set, {root}/v1/auth/{login_id}/.well-known/jwks.json.
	JWKSURL string
	// Issuer: the tokens' `iss`, {PUBLIC_URL}/v1/auth/{login_id}.
	Issuer string
	// Audience, when set: the tokens' `aud` must name it (Gatehouse writes the project id).
	Audience string
	// Leeway for exp, nbf and iat against this machine's clock (default DefaultLeeway).
	Leeway time.Duration
	// FetchTimeout bounds one fetch of the key set (default DefaultFetchTimeout).
	FetchTimeout time.Duration
	// RefetchInterval: after a fetch, a token naming an unknown key is refused without fetching
	// again until this long has passed (default DefaultRefetchInterval), so tokens with made-up
	// key ids cannot make this process flood Gatehouse. A rotation's first tokens may be
	// refused for that long.
	RefetchInterval time.Duration
	// HTTPClient fetches the key set (default http.DefaultClient).
	HTTPClient *http.Client
}

// ProjectVerifierConfig is the config for a project's tokens: its key set and issuer under
// baseURL (Gatehouse's PUBLIC_URL) and its id as the audience. Set Issuer yourself when you
// reach Gatehouse at another address than its PUBLIC_URL.
func ProjectVerifierConfig(baseURL, loginID, projectID string) VerifierConfig {
	issuer := strings.TrimRight(baseURL, "/") + "/v1/auth/" + loginID
	return VerifierConfig{JWKSURL: issuer + "/.well-known/jwks.json", Issuer: issuer, Audience: projectID}
}

// AccessTokenClaims are the claims of a Gatehouse access token (API.md section 5).
type AccessTokenClaims struct {
	Subject     string
	Email       string
	ProjectID   string
	SessionID   string
	AMR         []string
	AppMetadata map[string]interface{}
	Issuer      string
	Audience    []string
	ID          string
	IssuedAt    time.Time
	ExpiresAt   time.Time
	// KeyID is the `kid` of the key that signed the token.
	KeyID string
}

// Verifier checks access tokens offline against the project's published keys, as a backend
// that must not call Gatehouse on every request does. The key set is fetched on first use
// and kept; a token signed with a key it does not hold (after a rotation) fetches it again,
// at most once per RefetchInterval. Revocation is not visible offline: call VerifyToken
// where a revoked session must be refused at once. Safe for concurrent use.
type Verifier struct {
	config VerifierConfig
	now    func() time.Time

	// fetching serializes fetches, so callers meeting one unknown key together fetch once.
	fetching  sync.Mutex
	mu        sync.RWMutex
	keys      map[string]*ecdsa.PublicKey
	fetchedAt time.Time
}

// NewVerifier returns a verifier for config; it fetches nothing until the first Verify.
func NewVerifier(config VerifierConfig) (*Verifier, error) {
	if config.JWKSURL == "" || config.Issuer == "" {
		return nil, errors.New("gatehouse: a verifier needs the JWKS URL and the issuer")
	}
	if config.Leeway == 0 {
		config.Leeway = DefaultLeeway
	}
	if config.FetchTimeout == 0 {
		config.FetchTimeout = DefaultFetchTimeout
	}
	if config.RefetchInterval == 0 {
		config.RefetchInterval = DefaultRefetchInterval
	}
	if config.HTTPClient == nil {
		config.HTTPClient = http.DefaultClient
	}
	return &Verifier{config: config, now: time.Now}, nil
}

// Verify returns the claims of a valid access token, or an error saying why it was refused
// (errors.Is with ErrBadSignature, ErrTokenExpired, ErrWrongIssuer, …).
func (v *Verifier) Verify(ctx context.Context, token string) (*AccessTokenClaims, error) {
	claims, err := v.verify(ctx, token)
	if err != nil {
		return nil, fmt.Errorf("gatehouse: access token refused: %w", err)
	}
	return claims, nil
}

// gatehouseClaims are the claims beyond the registered ones, as the token spells them.
type gatehouseClaims struct {
	Email       string                 `json:"email"`
	ProjectID   string                 `json:"project_id"`
	SessionID   string                 `json:"sid"`
	AMR         []string               `json:"amr"`
	AppMetadata map[string]interface{} `json:"app_metadata"`
}

func (v *Verifier) verify(ctx context.Context, token string) (*AccessTokenClaims, error) {
	// go-jose also parses the JSON serialization, with several signatures: a JWT is compact.
	if len(token) > 8192 || strings.Count(token, ".") != 2 {
		return nil, ErrTokenMalformed
	}
	parsed, err := jwt.ParseSigned(token)
	if err != nil || len(parsed.Headers) != 1 {
		return nil, ErrTokenMalformed
	}
	header := parsed.Headers[0]
	if header.Algorithm != SigningAlgorithm || header.KeyID == "" {
		return nil, ErrTokenMalformed
	}
	key, err := v.key(ctx, header.KeyID)
	if err != nil {
		return nil, err
	}
	var registered jwt.Claims
	var own gatehouseClaims
	if err := parsed.Claims(key, &registered, &own); err != nil {
		return nil, ErrBadSignature
	}
	// go-jose skips an absent exp; every Gatehouse token has one.
	if registered.Expiry == nil || registered.Subject == "" {
		return nil, ErrTokenMalformed
	}
	expected := jwt.Expected{Issuer: v.config.Issuer, Time: v.now()}
	if v.config.Audience != "" {
		expected.Audience = jwt.Audience{v.config.Audience}
	}
	switch err := registered.ValidateWithLeeway(expected, v.config.Leeway); err {
	case nil:
	case jwt.ErrExpired:
		return nil, ErrTokenExpired
	case jwt.ErrNotValidYet, jwt.ErrIssuedInTheFuture:
		return nil, ErrTokenNotYetValid
	case jwt.ErrInvalidIssuer:
		return nil, ErrWrongIssuer
	case jwt.ErrInvalidAudience:
		return nil, ErrWrongAudience
	default:
		return nil, err
	}
	claims := &AccessTokenClaims{
		Subject:     registered.Subject,
		Email:       own.Email,
		ProjectID:   own.ProjectID,
		SessionID:   own.SessionID,
		AMR:         own.AMR,
		AppMetadata: own.AppMetadata,
		Issuer:      registered.Issuer,
		Audience:    registered.Audience,
		ID:          registered.ID,
		ExpiresAt:   registered.Expiry.Time(),
		KeyID:       header.KeyID,
	}
	if registered.IssuedAt != nil {
		claims.IssuedAt = registered.IssuedAt.Time()
	}
	return claims, nil
}

// key returns the public key named kid, fetching the key set when it is not known yet.
func (v *Verifier) key(ctx context.Context, kid string) (*ecdsa.PublicKey, error) {
	if key := v.known(kid); key != nil {
		return key, nil
	}
	v.fetching.Lock()
	defer v.fetching.Unlock()
	// Another caller may have fetched it while this one waited.
	if key := v.known(kid); key != nil {
		return key, nil
	}
	v.mu.RLock()
	fetchedAt := v.fetchedAt
	v.mu.RUnlock()
	if !fetchedAt.IsZero() && v.now().Sub(fetchedAt) < v.config.RefetchInterval {
		return nil, ErrUnknownKey
	}
	keys, err := v.fetch(ctx)
	v.mu.Lock()
	// A failed fetch counts too: a Gatehouse that is down is not asked more often.
	v.fetchedAt = v.now()
	if err == nil {
		v.keys = keys
	}
	v.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKeySetUnavailable, err)
	}
	if key := keys[kid]; key != nil {
		return key, nil
	}
	return nil, ErrUnknownKey
}

func (v *Verifier) known(kid string) *ecdsa.PublicKey {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.keys[kid]
}

// fetch reads the key set and keeps its ES256 signing keys by kid; keys of other kinds are
// skipped, so a key set that gains one does not break this verifier.
func (v *Verifier) fetch(ctx context.Context) (map[string]*ecdsa.PublicKey, error) {
	ctx, cancel := context.WithTimeout(ctx, v.config.FetchTimeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, v.config.JWKSURL, nil)
	if err != nil {
		return nil, err
	}
	response, err := v.config.HTTPClient.Do(request)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %s", v.config.JWKSURL, response.Status)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(response.Body, 1<<20)).Decode(&set); err != nil {
		return nil, fmt.Errorf("GET %s: %v", v.config.JWKSURL, err)
	}
	keys := make(map[string]*ecdsa.PublicKey, len(set.Keys))
	for _, raw := range set.Keys {
		var jwk jose.JSONWebKey
		if err := jwk.UnmarshalJSON(raw); err != nil || jwk.KeyID == "" || !jwk.Valid() {
			continue
		}
		if (jwk.Algorithm != "" && jwk.Algorithm != SigningAlgorithm) || (jwk.Use != "" && jwk.Use != "sig") {
			continue
		}
		if key, ok := jwk.Key.(*ecdsa.PublicKey); ok && key.Curve == elliptic.P256() {
			keys[jwk.KeyID] = key
		}
	}
	return keys, nil
}
