"""The seed's linear demo (Linear(1,1), 100 samples of y = 2x + noise, batch 10, 5 epochs,
SGD 0.01, DistributedSampler, DDP over gloo), for the end-to-end wall time under torchrun."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"[init] RANK={rank}, WORLD_SIZE={world}, LOCAL_RANK={os.environ['LOCAL_RANK']}")
    torch.manual_seed(0)
    data = torch.randn(100, 1)
    labels = data * 2 + 0.1 * torch.randn_like(data)
    dataset = TensorDataset(data, labels)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank)
    loader = DataLoader(dataset, batch_size=10, sampler=sampler)
    model = nn.parallel.DistributedDataParallel(nn.Linear(1, 1))
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(5):
        sampler.set_epoch(epoch)
        total = 0.0
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            total += loss.item()
        if rank == 0:
            print(f"Epoch [{epoch + 1}/5], Average Loss: {total / len(loader):.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
