"""PyTorch DDP on the MNIST-shaped CNN, the reference for trainjob-trainer's throughput.

Run under torch.distributed.run with 2 workers. Same model, optimizer, batch and synthetic
data shape as `trainjob-trainer --model mnist-cnn`; prints the samples/s of each epoch.
--no-sync trains without DDP (no gradient all-reduce): the ceiling.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--no-sync", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()

    torch.manual_seed(0)
    prototypes = torch.randn(10, 1, 28, 28)
    targets = torch.randint(0, 10, (args.samples,))
    inputs = prototypes[targets] + 0.8 * torch.randn(args.samples, 1, 28, 28)
    dataset = TensorDataset(inputs, targets)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, seed=0)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)

    torch.manual_seed(1)
    model = Net()
    if not args.no_sync:
        model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        started = time.perf_counter()
        total = 0.0
        for data, target in loader:
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
            total += loss.item()
        # Timed once every worker is through the epoch, as trainjob-trainer does: without
        # sync the job's pace is its slowest worker's.
        dist.barrier()
        seconds = time.perf_counter() - started
        if rank == 0:
            samples = len(sampler) * world
            print(f"Epoch [{epoch + 1}/{args.epochs}], Average Loss: {total / len(loader):.6f}, "
                  f"{samples / seconds:.1f} samples/s", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
