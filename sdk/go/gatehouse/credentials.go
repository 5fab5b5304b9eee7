// Package gatehouse holds what every Go caller needs beside the generated stubs in
// gatehouse.dev/sdk/go/gen/...: clients with the credential headers, the stable error reasons
// and retry-after, a session that refreshes its tokens, and offline access-token verification.
package gatehouse

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// Header names from API.md, section 2 (gRPC metadata keys are lower case).
const (
	APIKeyHeader        = "x-service-key"
	AuthorizationHeader = "authorization"
)

// APIKey sends the project API key on every call; pass it to grpc.WithPerRPCCredentials.
type APIKey struct {
	Key string
	// AllowInsecure lets the key travel over a plaintext connection (a local server, or one
	// behind a TLS-terminating proxy on a private network); grpc-go refuses otherwise.
	AllowInsecure bool
}

// GetRequestMetadata implements credentials.PerRPCCredentials.
func (k APIKey) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{APIKeyHeader: k.Key}, nil
}

// RequireTransportSecurity implements credentials.PerRPCCredentials.
func (k APIKey) RequireTransportSecurity() bool {
	return !k.AllowInsecure
}

// ManagementToken sends a management token (from AccountService.Login) on every call to the
// Account interface; pass it to grpc.WithPerRPCCredentials, or use NewAccountClient.
type ManagementToken struct {
	Token string
	// AllowInsecure: as for APIKey.
	AllowInsecure bool
}

// GetRequestMetadata implements credentials.PerRPCCredentials.
func (t ManagementToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{AuthorizationHeader: "Bearer " + t.Token}, nil
}

// RequireTransportSecurity implements credentials.PerRPCCredentials.
func (t ManagementToken) RequireTransportSecurity() bool {
	return !t.AllowInsecure
}

// WithAccessToken makes the calls made with ctx act as the end user whose access token it is.
func WithAccessToken(ctx context.Context, accessToken string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, AuthorizationHeader, "Bearer "+accessToken)
}
