// The load bench's clients in C++: the same clients as bench/load.py's `Load`, at about half their CPU.
//
// On a machine of two cores the bench's Python clients cost as much CPU per act as the server they
// measure (a process reading 6.7 stream messages an act), so they take much of the core a second table
// worker would use. These do the same work through gRPC's C++ library: every subscriber notes when
// each event number reaches it, every Act notes when it was sent and the last event number it
// produced; latency is arrival minus send, for every subscriber.
//
// Driven by bench/load.py over stdin and stdout, one line each way:
//   stdin:  bare|real                       the server's kind (bare: a token is TABLE/SEAT, every Act a call)
//           table ADDRESS SEATS WATCHERS TOKEN...   one table: where it is served, its seats' then watchers' tokens
//           go                              open every stream; prints `ready FAILED` once each has its snapshot
//           run RATE SECONDS                each table acts RATE times a second, staggered; prints one JSON line
//           quit
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cardtui/v1/table.grpc.pb.h"

using cardtui::v1::Action;
using cardtui::v1::ActRequest;
using cardtui::v1::ActResponse;
using cardtui::v1::SubscribeRequest;
using cardtui::v1::TableMessage;

namespace {

constexpr int kChannels = 8;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Seat {
  std::string token;
  std::vector<Action> legal;
};

struct TableLoad {
  std::string address;
  std::vector<Seat> seats;
  std::vector<std::string> watchers;
  std::mutex mu;  // guards everything below, and each seat's legal
  std::unordered_map<uint64_t, std::vector<double>> arrivals;
  std::vector<std::pair<uint64_t, double>> acts;
};

struct Shared {
  bool bare = false;
  std::vector<std::unique_ptr<TableLoad>> tables;
  std::map<std::string, std::vector<std::unique_ptr<cardtui::v1::Table::Stub>>> stubs;
  std::atomic<long> messages{0};
  std::atomic<long> errors{0};
  std::atomic<long> failed{0};
  std::mutex ready_mu;
  std::condition_variable ready_cv;
  int ready = 0;
  std::atomic<int> in_flight{0};

  cardtui::v1::Table::Stub* stub(const std::string& address, size_t k) {
    auto& list = stubs[address];
    if (list.empty()) {
      for (int i = 0; i < kChannels; ++i) {
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a connection of its own, as each Python channel has
        args.SetInt("cardtui.channel", i);
        list.push_back(cardtui::v1::Table::NewStub(
            grpc::CreateCustomChannel("127.0.0.1" + address, grpc::InsecureChannelCredentials(), args)));
      }
    }
    return list[k % kChannels].get();
  }

  void mark_ready() {
    std::lock_guard<std::mutex> lock(ready_mu);
    ++ready;
    ready_cv.notify_all();
  }
};

// Every stream and every Act completes on one completion queue, read by one thread: an arrival is
// noted the moment that thread takes it, with no hand-off between threads before it.
struct Tag {
  virtual ~Tag() = default;
  virtual void Proceed(bool ok) = 0;
};

class Reader : public Tag {
 public:
  Reader(Shared* shared, TableLoad* table, Seat* seat, const std::string& token, cardtui::v1::Table::Stub* stub,
         grpc::CompletionQueue* cq)
      : shared_(shared), table_(table), seat_(seat) {
    request_.set_token(token);
    reader_ = stub->PrepareAsyncSubscribe(&context_, request_, cq);
    reader_->StartCall(this);
  }

  void Cancel() { context_.TryCancel(); }

  bool Finished() const { return finished_.load(); }

  void Proceed(bool ok) override {
    if (finishing_) {  // the stream's status is in
      if (!ready_) {  // counted as failed: setup must not wait for it
        shared_->failed.fetch_add(1);
        std::cerr << "subscription failed: " << status_.error_code() << " " << status_.error_message() << "\n";
        ready_ = true;
        shared_->mark_ready();
      }
      finished_.store(true);
      return;
    }
    if (!ok) {  // the stream ended: ask for its status
      finishing_ = true;
      reader_->Finish(&status_, this);
      return;
    }
    if (started_) Take();
    started_ = true;
    reader_->Read(&message_, this);
  }

 private:
  void Take() {
    double at = now();
    shared_->messages.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(table_->mu);
      if (message_.has_update()) {
        for (const auto& ev : message_.update().events()) table_->arrivals[ev.seq()].push_back(at);
        if (seat_ != nullptr && message_.update().has_view()) {
          const auto& legal = message_.update().view().legal();
          seat_->legal.assign(legal.begin(), legal.end());
        }
      } else if (message_.has_snapshot() && seat_ != nullptr) {
        const auto& legal = message_.snapshot().view().legal();
        seat_->legal.assign(legal.begin(), legal.end());
      }
    }
    if (message_.has_snapshot() && !ready_) {
      ready_ = true;
      shared_->mark_ready();
    }
  }

  Shared* shared_;
  TableLoad* table_;
  Seat* seat_;
  grpc::ClientContext context_;
  SubscribeRequest request_;
  TableMessage message_;
  grpc::Status status_;
  std::unique_ptr<grpc::ClientAsyncReader<TableMessage>> reader_;
  bool started_ = false;
  bool finishing_ = false;
  bool ready_ = false;
  std::atomic<bool> finished_{false};
};

class Call : public Tag {
 public:
  Call(Shared* shared, TableLoad* table) : shared_(shared), table_(table) {}

  void Start(cardtui::v1::Table::Stub* stub, grpc::CompletionQueue* cq) {
    sent_ = now();
    rpc_ = stub->PrepareAsyncAct(&context_, request, cq);
    rpc_->StartCall();
    rpc_->Finish(&response_, &status_, this);
  }

  void Proceed(bool) override {
    if (status_.ok()) {
      std::lock_guard<std::mutex> lock(table_->mu);
      table_->acts.emplace_back(response_.seq(), sent_);
    } else {
      shared_->errors.fetch_add(1);
    }
    shared_->in_flight.fetch_sub(1);
    delete this;
  }

  ActRequest request;

 private:
  Shared* shared_;
  TableLoad* table_;
  grpc::ClientContext context_;
  ActResponse response_;
  grpc::Status status_;
  double sent_ = 0;
  std::unique_ptr<grpc::ClientAsyncResponseReader<ActResponse>> rpc_;
};

void Poll(grpc::CompletionQueue* cq) {
  void* tag = nullptr;
  bool ok = false;
  while (cq->Next(&tag, &ok)) static_cast<Tag*>(tag)->Proceed(ok);
}

class Driver {
 public:
  Driver(Shared* shared, grpc::CompletionQueue* cq) : shared_(shared), cq_(cq), rng_(1) {}

  // One act at table `i`, or false when no seat may act yet (between hands, or our last act's view
  // is on its way): the caller tries again 10 ms later, up to 20 times, as the Python clients do.
  bool Act(size_t i) {
    TableLoad* table = shared_->tables[i].get();
    auto call = std::make_unique<Call>(shared_, table);
    {
      std::lock_guard<std::mutex> lock(table->mu);
      Action action;
      Seat* seat = nullptr;
      if (shared_->bare) {
        seat = &table->seats[table->acts.size() % table->seats.size()];
        action.set_type(cardtui::v1::ACTION_TYPE_CALL);
      } else {
        for (auto& s : table->seats) {
          if (!s.legal.empty()) {
            seat = &s;
            break;
          }
        }
        if (seat == nullptr) return false;
        std::vector<const Action*> choices;
        for (const auto& a : seat->legal) {
          bool big = (a.type() == cardtui::v1::ACTION_TYPE_BET || a.type() == cardtui::v1::ACTION_TYPE_RAISE) &&
                     a.chips() > 3;
          if (a.type() != cardtui::v1::ACTION_TYPE_FOLD && !big) choices.push_back(&a);
        }
        if (choices.empty())
          for (const auto& a : seat->legal) choices.push_back(&a);
        action = *choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng_)];
        if (action.max_chips()) {
          int hi = std::min(action.max_chips(), std::max(action.chips(), 3));
          action.set_chips(std::uniform_int_distribution<int>(action.chips(), std::max(action.chips(), hi))(rng_));
          action.set_max_chips(0);
        }
        seat->legal.clear();
      }
      call->request.set_token(seat->token);
      *call->request.mutable_action() = action;
    }
    shared_->in_flight.fetch_add(1);
    call.release()->Start(shared_->stub(table->address, i), cq_);
    return true;
  }

  std::string Run(double rate, double seconds) {
    for (auto& t : shared_->tables) {
      std::lock_guard<std::mutex> lock(t->mu);
      t->acts.clear();
      t->arrivals.clear();
    }
    long messages0 = shared_->messages.load();
    double cpu0 = cpu_seconds();
    double interval = 1.0 / rate;
    size_t n = shared_->tables.size();
    double start = now();
    // (when, table, tries): every table's next act, and acts waiting for a seat that may act
    using Item = std::tuple<double, size_t, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> due;
    for (size_t i = 0; i < n; ++i) due.emplace(start + interval * i / n, i, 0);
    while (!due.empty()) {
      auto [when, i, tries] = due.top();
      due.pop();
      double wait = when - now();
      if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      bool acted = Act(i);
      if (!acted && tries < 20) due.emplace(now() + 0.01, i, tries + 1);
      if (tries == 0) {  // the table's own pace goes on whether or not this act found a seat
        double next = when + interval;
        if (next - start < seconds) due.emplace(next, i, 0);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    double elapsed = now() - start;
    long acts = 0, expected = 0, delivered = 0;
    std::ostringstream lat;
    lat.precision(4);
    lat << std::fixed;
    bool first = true;
    for (auto& t : shared_->tables) {
      std::lock_guard<std::mutex> lock(t->mu);
      for (const auto& [seq, sent] : t->acts) {
        ++acts;
        expected += 6;
        auto found = t->arrivals.find(seq);
        if (found == t->arrivals.end()) continue;
        for (double at : found->second) {
          lat << (first ? "" : ",") << (at - sent) * 1000;
          first = false;
          ++delivered;
        }
      }
    }
    double cpu = cpu_seconds() - cpu0;
    std::ostringstream out;
    out << "{\"acts\": " << acts << ", \"rate\": " << acts / elapsed << ", \"delivered\": " << delivered
        << ", \"expected\": " << expected << ", \"messages\": " << shared_->messages.load() - messages0
        << ", \"clients_ms\": " << (acts ? 1000 * cpu / acts : 0.0) << ", \"errors\": " << shared_->errors.load()
        << ", \"lat\": [" << lat.str() << "]}";
    return out.str();
  }

 private:
  Shared* shared_;
  grpc::CompletionQueue* cq_;
  std::mt19937_64 rng_;
};

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  Shared shared;
  std::vector<std::unique_ptr<Reader>> readers;
  grpc::CompletionQueue cq;
  std::thread poller(Poll, &cq);
  Driver driver(&shared, &cq);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "bare" || word == "real") {
      shared.bare = word == "bare";
    } else if (word == "table") {
      auto table = std::make_unique<TableLoad>();
      int seats = 0, watchers = 0;
      in >> table->address >> seats >> watchers;
      for (int s = 0; s < seats; ++s) {
        Seat seat;
        in >> seat.token;
        table->seats.push_back(seat);
      }
      for (int w = 0; w < watchers; ++w) {
        std::string token;
        in >> token;
        table->watchers.push_back(token);
      }
      shared.tables.push_back(std::move(table));
    } else if (word == "go") {
      int want = 0;
      for (size_t i = 0; i < shared.tables.size(); ++i) {
        TableLoad* t = shared.tables[i].get();
        for (auto& seat : t->seats) {
          readers.push_back(std::make_unique<Reader>(&shared, t, &seat, seat.token,
                                                     shared.stub(t->address, std::hash<std::string>{}(seat.token)), &cq));
          ++want;
        }
        for (auto& token : t->watchers) {
          readers.push_back(std::make_unique<Reader>(&shared, t, nullptr, token,
                                                     shared.stub(t->address, std::hash<std::string>{}(token)), &cq));
          ++want;
        }
      }
      std::unique_lock<std::mutex> lock(shared.ready_mu);
      shared.ready_cv.wait(lock, [&] { return shared.ready >= want; });
      std::cout << "ready " << shared.failed.load() << std::endl;
    } else if (word == "run") {
      double rate = 1, seconds = 1;
      in >> rate >> seconds;
      std::cout << driver.Run(rate, seconds) << std::endl;
    } else if (word == "quit") {
      break;
    }
  }
  for (auto& r : readers) r->Cancel();
  for (auto& r : readers)
    while (!r->Finished()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  while (shared.in_flight.load() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  cq.Shutdown();
  poller.join();
  return 0;
}
