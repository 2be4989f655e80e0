// SSH key pairs for the Secrets pods log in to each other with (the MPI launcher's ssh to
// its nodes): ECDSA P-521, as Kubeflow Trainer generates them, made with libcrypto.
#ifndef TRAINJOB_CRYPTO_SSH_KEY_H_
#define TRAINJOB_CRYPTO_SSH_KEY_H_

#include <optional>
#include <string>

namespace trainjob {

struct SshKeyPair {
  std::string private_pem;  ///< PEM "EC PRIVATE KEY" (SEC1), what ssh reads as id_rsa
  std::string public_line;  ///< "ecdsa-sha2-nistp521 AAAA…\n", an authorized_keys line
};

/// A fresh P-521 key pair from the system's random source; nullopt (and *error) when
/// libcrypto fails.
std::optional<SshKeyPair> generate_ssh_key_pair(std::string* error);

/// The authorized_keys line of the EC private key in `pem` (RFC 5656 encoding of its
/// public point); nullopt when `pem` holds no P-521 private key.
std::optional<std::string> ssh_public_line_of(const std::string& pem);

}  // namespace trainjob

#endif  // TRAINJOB_CRYPTO_SSH_KEY_H_
