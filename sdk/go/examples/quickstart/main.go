// Quickstart signs up, logs in, verifies the access token and reads why a login failed, over
// gRPC:
//
//	GATEHOUSE_ADDRESS=localhost:8080 GATEHOUSE_API_KEY=gk_… go run ./examples/quickstart
//
// (from sdk/go; docs/clients.md shows how to build it with Debian's Go packages). The tests run
// this very program against a real server (test/sdks/go.test.ts).
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"gatehouse.dev/sdk/go/gatehouse"
	authv1 "gatehouse.dev/sdk/go/gen/gatehouse/auth/v1"
)

func main() {
	address := getenv("GATEHOUSE_ADDRESS", "localhost:8080")
	apiKey := os.Getenv("GATEHOUSE_API_KEY")
	if apiKey == "" {
		log.Fatal("set GATEHOUSE_API_KEY to a project API key")
	}
	email := getenv("GATEHOUSE_EMAIL", "quickstart-"+randomHex(6)+"@example.com")
	const password = "a sturdy passphrase 1"

	// Plaintext, for a local server: use grpc.WithTransportCredentials(credentials.NewTLS(nil))
	// and drop AllowInsecure for one behind TLS. (WithInsecure is what grpc-go 1.33, Debian
	// 12's, has; later versions also offer insecure.NewCredentials.)
	conn, err := grpc.Dial(address,
		grpc.WithInsecure(),
		grpc.WithPerRPCCredentials(gatehouse.APIKey{Key: apiKey, AllowInsecure: true}),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	auth := authv1.NewAuthServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	signup, err := auth.Signup(ctx, &authv1.SignupRequest{Email: email, Password: password})
	if err != nil {
		log.Fatalf("signup: %v", err)
	}
	fmt.Printf("signed up user_id=%s\n", signup.GetUser().GetId())

	login, err := auth.Login(ctx, &authv1.LoginRequest{Email: email, Password: password})
	if err != nil {
		log.Fatalf("login: %v", err)
	}
	fmt.Printf("logged in user_id=%s\n", login.GetUser().GetId())

	verified, err := auth.VerifyToken(ctx, &authv1.VerifyTokenRequest{Token: login.GetAccessToken()})
	if err != nil {
		log.Fatalf("verify: %v", err)
	}
	fmt.Printf("verified valid=%t sub=%s\n", verified.GetValid(), verified.GetClaims().GetSub())

	_, err = auth.Login(ctx, &authv1.LoginRequest{Email: email, Password: "not the password"})
	if err == nil {
		log.Fatal("a login with a wrong password succeeded")
	}
	fmt.Printf("failed login code=%s reason=%s\n", status.Code(err), gatehouse.ReasonOf(err))
}

func getenv(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		log.Fatal(err)
	}
	return hex.EncodeToString(b)
}
