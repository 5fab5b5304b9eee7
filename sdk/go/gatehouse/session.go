package gatehouse

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	authv1 "gatehouse.dev/sdk/go/gen/gatehouse/auth/v1"
)

// DefaultRefreshSkew is how long before its access token ends a Session refreshes it: long
// enough for a call to reach the server with the token still valid, clocks a little apart.
const DefaultRefreshSkew = 30 * time.Second

// Tokens are a session's tokens; ExpiresAt is when the access token ends, by this machine's
// clock (the server's expires_in counted from the answer).
type Tokens struct {
	AccessToken  string
	RefreshToken string
	ExpiresAt    time.Time
}

// SignInAnswer is what Session.Start reads: the answer of Login, Signup, VerifyOtp,
// VerifyMagicLink, VerifyMfa and the other calls that sign in.
type SignInAnswer interface {
	GetAccessToken() string
	GetRefreshToken() string
	GetExpiresIn() int32
}

// SessionOptions tune a Session; the zero value is the defaults.
type SessionOptions struct {
	// RefreshSkew: refresh this long before the access token ends (default DefaultRefreshSkew).
	RefreshSkew time.Duration
	// RefreshTimeout bounds one Refresh call (default 30 s). It runs apart from the callers'
	// contexts, so that one caller giving up does not fail the others waiting on it.
	RefreshTimeout time.Duration
	// OnChange is called with the new tokens after each start and refresh, and with nil when
	// the session ends, to persist them (see Restore). It runs under the session's lock: keep
	// it quick and do not call the session from it.
	OnChange func(*Tokens)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Refresh answers that end the session for good: its tokens are dropped and the user must sign
// in again. MFA_REQUIRED_BY_PROJECT: the project now requires MFA and the session was signed
// in without a second factor.
var sessionEndingReasons = map[Reason]bool{
	ReasonInvalidRefreshToken:  true,
	ReasonRefreshTokenReused:   true,
	ReasonMFARequiredByProject: true,
}

// SessionEndedError says the session has ended: signed out, revoked, its refresh token
// refused, or refused because the project now requires MFA. Sign in again. Reason says why
// ("" when there was no session); ReasonOf and status.FromError read the server's answer.
type SessionEndedError struct {
	Reason Reason
	err    error
}

func (e *SessionEndedError) Error() string {
	if e.Reason == "" {
		return "gatehouse: no session: sign in first"
	}
	return "gatehouse: the session has ended (" + string(e.Reason) + ")"
}

// Unwrap returns the refused Refresh's error, if any.
func (e *SessionEndedError) Unwrap() error { return e.err }

// GRPCStatus lets status.FromError (and so ReasonOf) read the server's answer.
func (e *SessionEndedError) GRPCStatus() *status.Status {
	if e.err == nil {
		return status.New(codes.Unauthenticated, e.Error())
	}
	return status.Convert(e.err)
}

// MFARequired says the project requires MFA now: send the user to sign in, where the second
// factor (or its enrollment) is asked for.
func (e *SessionEndedError) MFARequired() bool { return e.Reason == ReasonMFARequiredByProject }

// IsSessionEnded says whether err is (or wraps) a *SessionEndedError.
func IsSessionEnded(err error) bool {
	var ended *SessionEndedError
	return errors.As(err, &ended)
}

// Session is a signed-in user's session in this process: it hands out an access token valid
// for at least the skew, refreshing it first when due, and keeps the rotated refresh token.
// Safe for concurrent use: goroutines that find the token due together share one Refresh call,
// since presenting a spent refresh token later than the server's grace window is reuse, which
// revokes the whole session (API.md section 5).
type Session struct {
	auth    authv1.AuthServiceClient
	skew    time.Duration
	timeout time.Duration
	now     func() time.Time
	save    func(*Tokens)

	mu         sync.Mutex
	tokens     *Tokens
	refreshing *refreshCall
	// Bumped when the tokens are replaced other than by a refresh (Start, Restore), so that a
	// refresh begun before does not overwrite them.
	generation uint64
}

type refreshCall struct {
	done   chan struct{}
	tokens Tokens
	err    error
}

// NewSession returns a session without tokens; Start or Restore gives it some. auth is a client
// with the project's API key (NewAuthClient), not acting as a user.
func NewSession(auth authv1.AuthServiceClient, options SessionOptions) *Session {
	s := &Session{auth: auth, skew: options.RefreshSkew, timeout: options.RefreshTimeout, now: options.Now, save: options.OnChange}
	if s.skew == 0 {
		s.skew = DefaultRefreshSkew
	}
	if s.timeout == 0 {
		s.timeout = 30 * time.Second
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.save == nil {
		s.save = func(*Tokens) {}
	}
	return s
}

// Start keeps the tokens of a sign-in answer as the session's.
func (s *Session) Start(answer SignInAnswer) (Tokens, error) {
	if pending, ok := answer.(interface{ GetConfirmationRequired() bool }); ok && pending.GetConfirmationRequired() {
		return Tokens{}, errors.New("gatehouse: this signup waits for its email to be confirmed: start the session with VerifyMagicLink's answer")
	}
	if answer.GetAccessToken() == "" || answer.GetRefreshToken() == "" || answer.GetExpiresIn() <= 0 {
		return Tokens{}, errors.New("gatehouse: this answer holds no tokens (an MFA challenge must be completed first)")
	}
	tokens := Tokens{
		AccessToken:  answer.GetAccessToken(),
		RefreshToken: answer.GetRefreshToken(),
		ExpiresAt:    s.now().Add(time.Duration(answer.GetExpiresIn()) * time.Second),
	}
	s.Restore(tokens)
	return tokens, nil
}

// Restore makes tokens kept earlier (OnChange) the session's.
func (s *Session) Restore(tokens Tokens) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = &tokens
	s.generation++
	s.save(&tokens)
}

// Tokens returns the session's tokens, and false when it has none.
func (s *Session) Tokens() (Tokens, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokens == nil {
		return Tokens{}, false
	}
	return *s.tokens, true
}

// RefreshDue returns when the session will next refresh: the access token's end less the skew.
func (s *Session) RefreshDue() (time.Time, bool) {
	tokens, ok := s.Tokens()
	return tokens.ExpiresAt.Add(-s.skew), ok
}

// AccessToken returns an access token valid for at least the skew, refreshing first when due.
// A *SessionEndedError means the user must sign in again; any other error (the network, a
// RATE_LIMITED answer: see RetryAfter) leaves the session as it was, to be tried again.
func (s *Session) AccessToken(ctx context.Context) (string, error) {
	tokens, err := s.await(ctx, false)
	return tokens.AccessToken, err
}

// Refresh refreshes now, whether due or not; calls made while one runs share it.
func (s *Session) Refresh(ctx context.Context) (Tokens, error) {
	return s.await(ctx, true)
}

// SignOut revokes the session on the server and forgets its tokens here. The tokens are
// forgotten even when the revocation fails (its error is returned).
func (s *Session) SignOut(ctx context.Context) error {
	s.mu.Lock()
	// A refresh in flight would store the tokens it gets after they were forgotten.
	for s.refreshing != nil {
		call := s.refreshing
		s.mu.Unlock()
		select {
		case <-call.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		s.mu.Lock()
	}
	tokens := s.tokens
	s.forget()
	s.mu.Unlock()
	if tokens == nil {
		return nil
	}
	_, err := s.auth.RevokeToken(ctx, &authv1.RevokeTokenRequest{Token: tokens.RefreshToken})
	return err
}

func (s *Session) await(ctx context.Context, force bool) (Tokens, error) {
	s.mu.Lock()
	if s.tokens == nil {
		s.mu.Unlock()
		return Tokens{}, &SessionEndedError{}
	}
	// Checked and joined under one lock: a caller that found the token due must not start a
	// second refresh after another caller's has finished.
	if !force && s.refreshing == nil && s.tokens.ExpiresAt.Add(-s.skew).After(s.now()) {
		tokens := *s.tokens
		s.mu.Unlock()
		return tokens, nil
	}
	call := s.refreshing
	if call == nil {
		call = &refreshCall{done: make(chan struct{})}
		s.refreshing = call
		go s.refresh(call, s.tokens.RefreshToken, s.generation)
	}
	s.mu.Unlock()
	select {
	case <-call.done:
		return call.tokens, call.err
	case <-ctx.Done():
		return Tokens{}, ctx.Err()
	}
}

func (s *Session) refresh(call *refreshCall, refreshToken string, generation uint64) {
	defer close(call.done)
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	answer, err := s.auth.Refresh(ctx, &authv1.RefreshRequest{RefreshToken: refreshToken})

	s.mu.Lock()
	defer s.mu.Unlock()
	s.refreshing = nil
	switch {
	case s.generation != generation:
		// Started again meanwhile: the new sign-in's tokens win over this answer.
		if s.tokens == nil {
			call.err = &SessionEndedError{}
		} else {
			call.tokens = *s.tokens
		}
	case err != nil:
		reason := ReasonOf(err)
		if sessionEndingReasons[reason] {
			s.forget()
			call.err = &SessionEndedError{Reason: reason, err: err}
		} else {
			call.err = err
		}
	default:
		call.tokens = Tokens{
			AccessToken:  answer.GetAccessToken(),
			RefreshToken: answer.GetRefreshToken(),
			ExpiresAt:    s.now().Add(time.Duration(answer.GetExpiresIn()) * time.Second),
		}
		tokens := call.tokens
		s.tokens = &tokens
		s.save(&tokens)
	}
}

// forget drops the tokens; the caller holds s.mu.
func (s *Session) forget() {
	s.tokens = nil
	s.generation++
	s.save(nil)
}
