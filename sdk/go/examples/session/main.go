// Session keeps a user's session with gatehouse.Session: it refreshes the access token before
// it ends, many goroutines share one refresh, a refresh the server refuses ends the session,
// and sign-out revokes it. Then a wrong password twice shows a failed call's reason and
// retry-after:
//
//	GATEHOUSE_ADDRESS=localhost:8080 GATEHOUSE_API_KEY=gk_… go run ./examples/session
//
// It waits until the refresh is due, so set GATEHOUSE_REFRESH_SKEW (a Go duration, default
// 30s) a few seconds short of the project's token_expiry: the tests use a token_expiry of 60 s,
// the shortest a project allows, and 55s. test/sdks/go-session.test.ts runs it against a real
// server.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc"

	"gatehouse.dev/sdk/go/gatehouse"
	authv1 "gatehouse.dev/sdk/go/gen/gatehouse/auth/v1"
)

func main() {
	apiKey := os.Getenv("GATEHOUSE_API_KEY")
	if apiKey == "" {
		log.Fatal("set GATEHOUSE_API_KEY to a project API key")
	}
	skew := gatehouse.DefaultRefreshSkew
	if value := os.Getenv("GATEHOUSE_REFRESH_SKEW"); value != "" {
		var err error
		if skew, err = time.ParseDuration(value); err != nil {
			log.Fatalf("GATEHOUSE_REFRESH_SKEW: %v", err)
		}
	}
	email := "session-" + randomHex(6) + "@example.com"
	const password = "a sturdy passphrase 1"

	// Plaintext for a local server; see the quickstart for TLS.
	conn, err := grpc.Dial(getenv("GATEHOUSE_ADDRESS", "localhost:8080"), grpc.WithInsecure())
	check(err)
	defer conn.Close()
	auth := gatehouse.NewAuthClient(conn, apiKey)
	session := gatehouse.NewSession(auth, gatehouse.SessionOptions{RefreshSkew: skew})
	me := gatehouse.NewUserAuthClient(conn, apiKey, session)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	signup, err := auth.Signup(ctx, &authv1.SignupRequest{Email: email, Password: password})
	check(err)
	signedIn, err := session.Start(signup)
	check(err)
	userID := signup.GetUser().GetId()
	fmt.Printf("signed in user_id=%s expires_in=%d\n", userID, signup.GetExpiresIn())

	token, err := session.AccessToken(ctx)
	check(err)
	fmt.Printf("fresh refreshed=%t\n", token != signedIn.AccessToken)

	due, _ := session.RefreshDue()
	if wait := time.Until(due); wait > time.Minute {
		log.Fatalf("the refresh is due in %s: use a project with a short token_expiry, or set GATEHOUSE_REFRESH_SKEW", wait.Round(time.Second))
	}
	time.Sleep(time.Until(due))

	// Twenty goroutines find the token due at once: one Refresh call serves them all.
	const callers = 20
	tokens := make([]string, callers)
	var wg sync.WaitGroup
	for i := range tokens {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			token, err := session.AccessToken(ctx)
			check(err)
			tokens[i] = token
		}(i)
	}
	wg.Wait()
	distinct := map[string]bool{}
	for _, t := range tokens {
		distinct[t] = true
	}
	fmt.Printf("shared callers=%d distinct_tokens=%d refreshed=%t before_expiry=%t\n",
		callers, len(distinct), tokens[0] != signedIn.AccessToken, time.Now().Before(signedIn.ExpiresAt))

	user, err := me.GetUser(ctx, &authv1.GetUserRequest{Id: userID})
	check(err)
	fmt.Printf("as user user_id=%s\n", user.GetId())

	// Signed out everywhere (as from another device): the next refresh is refused, and the
	// session ends here too.
	_, err = me.RevokeAllSessions(ctx, &authv1.RevokeAllSessionsRequest{})
	check(err)
	_, err = session.Refresh(ctx)
	_, kept := session.Tokens()
	fmt.Printf("refused refresh ended=%t reason=%s has_tokens=%t\n", gatehouse.IsSessionEnded(err), gatehouse.ReasonOf(err), kept)

	// Signing out revokes the refresh token on the server (the access token lives out its
	// minutes) and forgets both here.
	login, err := auth.Login(ctx, &authv1.LoginRequest{Email: email, Password: password})
	check(err)
	_, err = session.Start(login)
	check(err)
	check(session.SignOut(ctx))
	_, kept = session.Tokens()
	_, err = auth.Refresh(ctx, &authv1.RefreshRequest{RefreshToken: login.GetRefreshToken()})
	fmt.Printf("signed out has_tokens=%t refresh=%s\n", kept, gatehouse.ReasonOf(err))

	// A failed call's reason, and how long to wait when the answer says (RATE_LIMITED).
	for _, attempt := range []string{"first", "second"} {
		_, err = auth.Login(ctx, &authv1.LoginRequest{Email: email, Password: "not the password"})
		wait, ok := gatehouse.RetryAfter(err)
		fmt.Printf("%s wrong password reason=%s retry_after=%s\n", attempt, gatehouse.ReasonOf(err), retryAfter(wait, ok))
	}
}

func retryAfter(wait time.Duration, ok bool) string {
	if !ok {
		return "none"
	}
	return wait.String()
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func getenv(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, err := rand.Read(b)
	check(err)
	return hex.EncodeToString(b)
}
