// Verify checks access tokens offline, as a backend does on each request: it reads one token
// a line on stdin and prints whether the project's published keys vouch for it.
//
//	GATEHOUSE_URL=http://localhost:8080 GATEHOUSE_LOGIN_ID=lp_… GATEHOUSE_PROJECT_ID=proj_… \
//	  go run ./examples/verify <<<"$AT"
//
// GATEHOUSE_ISSUER overrides the expected issuer (when GATEHOUSE_URL is not the server's
// PUBLIC_URL); GATEHOUSE_REFETCH_INTERVAL (a Go duration) the bound on refetching the key set.
// test/sdks/go-verify.test.ts runs it against a real server, rotating the key in between.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"gatehouse.dev/sdk/go/gatehouse"
)

func main() {
	config := gatehouse.ProjectVerifierConfig(os.Getenv("GATEHOUSE_URL"), os.Getenv("GATEHOUSE_LOGIN_ID"), os.Getenv("GATEHOUSE_PROJECT_ID"))
	if issuer := os.Getenv("GATEHOUSE_ISSUER"); issuer != "" {
		config.Issuer = issuer
	}
	if interval := os.Getenv("GATEHOUSE_REFETCH_INTERVAL"); interval != "" {
		var err error
		if config.RefetchInterval, err = time.ParseDuration(interval); err != nil {
			log.Fatalf("GATEHOUSE_REFETCH_INTERVAL: %v", err)
		}
	}
	verifier, err := gatehouse.NewVerifier(config)
	if err != nil {
		log.Fatal(err)
	}

	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 16384), 16384)
	for n := 1; lines.Scan(); n++ {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		claims, err := verifier.Verify(ctx, strings.TrimSpace(lines.Text()))
		cancel()
		if err != nil {
			fmt.Printf("refused n=%d why=%s\n", n, why(err))
			continue
		}
		fmt.Printf("verified n=%d sub=%s project_id=%s kid=%s\n", n, claims.Subject, claims.ProjectID, claims.KeyID)
	}
	if err := lines.Err(); err != nil {
		log.Fatal(err)
	}
}

// why names the refusal in one word; err's message says it in full.
func why(err error) string {
	for _, known := range []struct {
		err  error
		word string
	}{
		{gatehouse.ErrTokenMalformed, "malformed"},
		{gatehouse.ErrUnknownKey, "unknown_key"},
		{gatehouse.ErrBadSignature, "bad_signature"},
		{gatehouse.ErrTokenExpired, "expired"},
		{gatehouse.ErrTokenNotYetValid, "not_yet_valid"},
		{gatehouse.ErrWrongIssuer, "wrong_issuer"},
		{gatehouse.ErrWrongAudience, "wrong_audience"},
		{gatehouse.ErrKeySetUnavailable, "key_set_unavailable"},
	} {
		if errors.Is(err, known.err) {
			return known.word
		}
	}
	return "other"
}
