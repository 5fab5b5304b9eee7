package gatehouse

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	accountv1 "gatehouse.dev/sdk/go/gen/gatehouse/account/v1"
	authv1 "gatehouse.dev/sdk/go/gen/gatehouse/auth/v1"
)

// NewAuthClient returns the Authentication interface on conn, sending the project's API key
// on every call (X-Service-Key, API.md section 2). Unlike APIKey it needs no dial option, so
// one connection can serve several projects' keys and the Account interface.
func NewAuthClient(conn grpc.ClientConnInterface, apiKey string) authv1.AuthServiceClient {
	return authv1.NewAuthServiceClient(withHeaders(conn, func(context.Context) (map[string]string, error) {
		return map[string]string{APIKeyHeader: apiKey}, nil
	}))
}

// NewUserAuthClient returns the Authentication interface acting as the session's user: every
// call carries the API key and the session's access token, refreshed first when due. A call
// fails with the session's error (a *SessionEndedError once it has ended) without being sent.
func NewUserAuthClient(conn grpc.ClientConnInterface, apiKey string, session *Session) authv1.AuthServiceClient {
	return authv1.NewAuthServiceClient(withHeaders(conn, func(ctx context.Context) (map[string]string, error) {
		token, err := session.AccessToken(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]string{APIKeyHeader: apiKey, AuthorizationHeader: "Bearer " + token}, nil
	}))
}

// NewAccountClient returns the Account interface on conn, sending the management token (from
// AccountService.Login or AcceptInvitation) as `Authorization: Bearer` on every call.
func NewAccountClient(conn grpc.ClientConnInterface, managementToken string) accountv1.AccountServiceClient {
	return accountv1.NewAccountServiceClient(withHeaders(conn, func(context.Context) (map[string]string, error) {
		return map[string]string{AuthorizationHeader: "Bearer " + managementToken}, nil
	}))
}

// headerConn sets headers on every call made through it, replacing any of the same name the
// caller's context already holds (a header sent twice would be ambiguous, so the client's wins).
type headerConn struct {
	conn    grpc.ClientConnInterface
	headers func(context.Context) (map[string]string, error)
}

func withHeaders(conn grpc.ClientConnInterface, headers func(context.Context) (map[string]string, error)) grpc.ClientConnInterface {
	return headerConn{conn: conn, headers: headers}
}

func (c headerConn) outgoing(ctx context.Context) (context.Context, error) {
	headers, err := c.headers(ctx)
	if err != nil {
		return nil, err
	}
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	for name, value := range headers {
		md.Set(name, value)
	}
	return metadata.NewOutgoingContext(ctx, md), nil
}

func (c headerConn) Invoke(ctx context.Context, method string, args, reply interface{}, opts ...grpc.CallOption) error {
	ctx, err := c.outgoing(ctx)
	if err != nil {
		return err
	}
	return c.conn.Invoke(ctx, method, args, reply, opts...)
}

func (c headerConn) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	ctx, err := c.outgoing(ctx)
	if err != nil {
		return nil, err
	}
	return c.conn.NewStream(ctx, desc, method, opts...)
}
