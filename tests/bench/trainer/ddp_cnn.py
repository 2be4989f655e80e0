"""PyTorch DDP on the MNIST-shaped CNN, the reference for trainjob-trainer's throughput.

Run under torch.distributed.run (or trainjob-trainer as torchrun). Same model, optimizer,
batch and synthetic data shape as `trainjob-trainer --model mnist-cnn`; prints the samples/s
of each epoch. --no-sync trains without DDP (no gradient all-reduce): the ceiling.

--device cuda trains on the GPU of each local rank (round-robin, so gloo's ranks may share
one) with the data set held on it and each batch picked by index, as the trainer does: a
DataLoader would collate every batch sample by sample on the host. Works with PyTorch 1.13
(Debian's) and 2.x.
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def batches(inputs, targets, sampler, batch_size, device):
    """The batches of this rank's shard: through a DataLoader on the CPU, by index on a GPU."""
    if device.type == "cpu":
        yield from DataLoader(TensorDataset(inputs, targets), batch_size=batch_size,
                              sampler=sampler)
        return
    indices = list(sampler)
    for start in range(0, len(indices), batch_size):
        index = torch.tensor(indices[start:start + batch_size], device=device)
        yield inputs.index_select(0, index), targets.index_select(0, index)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--no-sync", action="store_true")
    parser.add_argument("--backend", choices=["gloo", "nccl"], default="gloo")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    device = torch.device("cpu")
    if args.device == "cuda":
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        device = torch.device("cuda", local_rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    dist.init_process_group(args.backend)
    rank, world = dist.get_rank(), dist.get_world_size()

    torch.manual_seed(0)
    prototypes = torch.randn(10, 1, 28, 28)
    targets = torch.randint(0, 10, (args.samples,))
    inputs = prototypes[targets] + 0.8 * torch.randn(args.samples, 1, 28, 28)
    inputs, targets = inputs.to(device), targets.to(device)
    sampler = DistributedSampler(TensorDataset(inputs, targets), num_replicas=world, rank=rank,
                                 seed=0)
    steps = (len(sampler) + args.batch_size - 1) // args.batch_size

    torch.manual_seed(1)
    model = Net().to(device)
    if not args.no_sync:
        device_ids = [device.index] if device.type == "cuda" else None
        model = nn.parallel.DistributedDataParallel(model, device_ids=device_ids)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        started = time.perf_counter()
        total = 0.0
        for data, target in batches(inputs, targets, sampler, args.batch_size, device):
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
            # Reads the loss back every step, as trainjob-trainer does: on a GPU that waits
            # for the step, in both.
            total += loss.item()
        # Timed once every worker is through the epoch, as trainjob-trainer does: without
        # sync the job's pace is its slowest worker's.
        dist.barrier()
        seconds = time.perf_counter() - started
        if rank == 0:
            samples = len(sampler) * world
            print(f"Epoch [{epoch + 1}/{args.epochs}], Average Loss: {total / steps:.6f}, "
                  f"{samples / seconds:.1f} samples/s", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
