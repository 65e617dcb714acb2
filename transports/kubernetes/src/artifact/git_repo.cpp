#include "artifact/git_repo.hpp"

#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace ganglion::kubernetes::detail {

namespace {

template <class T, void (*Free)(T*)>
struct git_deleter {
  void operator()(T* p) const noexcept { Free(p); }
};
using remote_ptr = std::unique_ptr<::git_remote, git_deleter<::git_remote, git_remote_free>>;
using object_ptr = std::unique_ptr<git_object, git_deleter<git_object, git_object_free>>;
using reference_ptr =
  std::unique_ptr<git_reference, git_deleter<git_reference, git_reference_free>>;
using commit_ptr = std::unique_ptr<git_commit, git_deleter<git_commit, git_commit_free>>;
using tree_ptr = std::unique_ptr<git_tree, git_deleter<git_tree, git_tree_free>>;
using tree_entry_ptr =
  std::unique_ptr<git_tree_entry, git_deleter<git_tree_entry, git_tree_entry_free>>;
using odb_ptr = std::unique_ptr<git_odb, git_deleter<git_odb, git_odb_free>>;

std::string last_error() {
  const auto* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

void check(int rc, const std::string& what) {
  if (rc < 0)
    throw std::runtime_error(what + ": " + last_error());
}

void init_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

/// What the callbacks see during one transfer.
struct transfer_state {
  const git_auth* auth;
  int attempts = 0;
};

int on_credentials(git_credential** out, const char*, const char* user_from_url,
                   unsigned int allowed, void* payload) {
  auto& state = *static_cast<transfer_state*>(payload);
  const auto& auth = *state.auth;
  // Argo's SSH user is "git"; a user written in the URL (ssh://u@host/…) is taken here.
  const char* user = user_from_url && *user_from_url ? user_from_url : "git";
  if (allowed == GIT_CREDENTIAL_USERNAME)
    return git_credential_username_new(out, user);
  if (++state.attempts > 1) {
    git_error_set_str(GIT_ERROR_NET, "authentication failed");
    return GIT_EAUTH;
  }
  if (auth.basic && (allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
    return git_credential_userpass_plaintext_new(out, auth.basic->first.c_str(),
                                                 auth.basic->second.c_str());
  if (!auth.ssh_key_file.empty() && (allowed & GIT_CREDENTIAL_SSH_KEY))
    return git_credential_ssh_key_new(out, user, nullptr, auth.ssh_key_file.c_str(), nullptr);
  git_error_set_str(GIT_ERROR_NET, "the server asks for credentials and the source gives none "
                                   "that it accepts (creds, githubApp or sshKeySecret)");
  return GIT_EAUTH;
}

int on_certificate(git_cert* cert, int, const char*, void* payload) {
  const auto& auth = *static_cast<transfer_state*>(payload)->auth;
  if (cert->cert_type == GIT_CERT_HOSTKEY_LIBSSH2 && auth.insecure_ignore_host_key)
    return 0;
  return GIT_PASSTHROUGH;
}

int past_deadline(void* payload) {
  const auto& auth = *static_cast<transfer_state*>(payload)->auth;
  if (std::chrono::steady_clock::now() < auth.deadline)
    return 0;
  git_error_set_str(GIT_ERROR_NET, "timed out");
  return -1;
}

int on_progress(const git_indexer_progress*, void* payload) {
  return past_deadline(payload);
}
int on_sideband(const char*, int, void* payload) {
  return past_deadline(payload);
}

git_remote_callbacks callbacks(transfer_state& state) {
  git_remote_callbacks cb;
  git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
  cb.credentials = &on_credentials;
  cb.certificate_check = &on_certificate;
  cb.transfer_progress = &on_progress;
  cb.sideband_progress = &on_sideband;
  cb.payload = &state;
  return cb;
}

} // namespace

void trust_ca_file(const std::string& file) {
  static std::mutex guard;
  static std::string trusted;
  if (file.empty())
    return;
  init_libgit2();
  std::lock_guard lock{guard};
  if (file == trusted)
    return;
  check(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file.c_str(), nullptr),
        "cannot trust the CA file " + file);
  trusted = file;
}

git_repo::git_repo(const std::string& dir, const std::string& url, const git_auth& auth) {
  init_libgit2();
  int rc = git_repository_open_ext(&repo_, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  if (rc == 0)
    return;
  if (rc != GIT_ENOTFOUND)
    check(rc, "cannot open the repository in " + dir);
  transfer_state state{&auth};
  git_clone_options options;
  git_clone_options_init(&options, GIT_CLONE_OPTIONS_VERSION);
  options.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE;
  options.fetch_opts.callbacks = callbacks(state);
  check(git_clone(&repo_, url.c_str(), dir.c_str(), &options),
        "cannot clone " + url + " into " + dir);
  cloned_ = true;
}

git_repo::~git_repo() {
  git_repository_free(repo_);
}

void git_repo::fetch(const std::string& name, const std::string& url,
                     const std::vector<std::string>& extra_refs, const git_auth& auth) {
  ::git_remote* found = nullptr;
  int rc = git_remote_lookup(&found, repo_, name.c_str());
  if (rc == GIT_ENOTFOUND)
    rc = git_remote_create(&found, repo_, name.c_str(), url.c_str());
  else if (rc == 0 && url != git_remote_url(found)) {
    git_remote_free(found);
    found = nullptr;
    check(git_remote_set_url(repo_, name.c_str(), url.c_str()), "cannot set remote " + name);
    rc = git_remote_lookup(&found, repo_, name.c_str());
  }
  check(rc, "cannot set up remote " + name);
  remote_ptr remote{found};
  std::vector<std::string> specs{"+refs/heads/*:refs/remotes/" + name + "/*",
                                 "+refs/tags/*:refs/tags/*"};
  for (const auto& ref : extra_refs)
    specs.push_back(fmt::format("+{}:{}", ref, ref));
  std::vector<char*> texts;
  texts.reserve(specs.size());
  for (auto& spec : specs)
    texts.push_back(spec.data());
  git_strarray refspecs{texts.data(), texts.size()};
  transfer_state state{&auth};
  git_fetch_options options;
  git_fetch_options_init(&options, GIT_FETCH_OPTIONS_VERSION);
  options.callbacks = callbacks(state);
  options.prune = GIT_FETCH_PRUNE;
  options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  check(git_remote_fetch(remote.get(), &refspecs, &options, nullptr), "cannot fetch " + url);
}

std::optional<git_oid> git_repo::commit_of_ref(const std::string& name) {
  git_reference* found = nullptr;
  int rc = git_reference_lookup(&found, repo_, name.c_str());
  if (rc == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC)
    return std::nullopt;
  check(rc, "cannot read " + name);
  reference_ptr ref{found};
  git_object* peeled = nullptr;
  check(git_reference_peel(&peeled, ref.get(), GIT_OBJECT_COMMIT),
        name + " does not lead to a commit");
  object_ptr commit{peeled};
  return *git_object_id(commit.get());
}

std::optional<git_oid> git_repo::commit_of_revision(const std::string& revision) {
  git_object* found = nullptr;
  int rc = git_revparse_single(&found, repo_, revision.c_str());
  if (rc == GIT_ENOTFOUND || rc == GIT_EAMBIGUOUS || rc == GIT_EINVALIDSPEC)
    return std::nullopt;
  check(rc, "cannot read " + revision);
  object_ptr object{found};
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) < 0)
    return std::nullopt;
  object_ptr commit{peeled};
  return *git_object_id(commit.get());
}

std::optional<std::size_t> git_repo::blob_size(const git_oid& commit_id, const std::string& path) {
  git_commit* commit = nullptr;
  check(git_commit_lookup(&commit, repo_, &commit_id), "cannot read the commit");
  commit_ptr commit_owner{commit};
  git_tree* tree = nullptr;
  check(git_commit_tree(&tree, commit), "cannot read the commit's tree");
  tree_ptr tree_owner{tree};
  git_tree_entry* entry = nullptr;
  if (git_tree_entry_bypath(&entry, tree, path.c_str()) != 0)
    return std::nullopt;
  tree_entry_ptr entry_owner{entry};
  if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB)
    return std::nullopt;
  git_odb* odb = nullptr;
  check(git_repository_odb(&odb, repo_), "cannot open the object database");
  odb_ptr odb_owner{odb};
  std::size_t size = 0;
  git_object_t type{};
  check(git_odb_read_header(&size, &type, odb, git_tree_entry_id(entry)),
        "cannot read the object of " + path);
  return size;
}

void git_repo::checkout(const git_oid& id) {
  git_object* found = nullptr;
  check(git_object_lookup(&found, repo_, &id, GIT_OBJECT_COMMIT), "cannot read the commit");
  object_ptr commit{found};
  git_checkout_options options;
  git_checkout_options_init(&options, GIT_CHECKOUT_OPTIONS_VERSION);
  options.checkout_strategy = GIT_CHECKOUT_FORCE;
  options.dir_mode = 0700;
  options.file_mode = 0600;
  check(git_checkout_tree(repo_, commit.get(), &options), "cannot check out");
  check(git_repository_set_head_detached(repo_, &id), "cannot move HEAD");
}

} // namespace ganglion::kubernetes::detail
